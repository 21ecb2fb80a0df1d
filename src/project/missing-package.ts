/**
 * A user's file imports a package that is not installed. Node's error names
 * the compiled copy that imported it (`…/node_modules/.cache/seine/ts/…mjs`,
 * a file the user never wrote) and says nothing of what to do; this turns it
 * into the package's name, the user's own .ts file, and the npm command.
 */
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceOfMirror } from './typescript/mirror-path.js';

// Node 20's wording for an ES module import (`import x from 'dayjs'`, also `dayjs/plugin/utc.js`).
const CANNOT_FIND_PACKAGE = /^Cannot find package '([^']+)' imported from (.+)$/;

export interface MissingPackage {
  /** The package's name, as npm installs it (`dayjs`, `@scope/name`). */
  readonly name: string;
  /** The user's file that imports it: the .ts source, not its compiled copy. */
  readonly importer: string;
}

/** The missing package and who imports it, when `error` is Node's "Cannot find package"; else null. */
export function missingPackage(error: unknown): MissingPackage | null {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') return null;
  const match = CANNOT_FIND_PACKAGE.exec(String((error as { message?: unknown }).message).split('\n')[0]!);
  if (match === null) return null;
  const where = match[2]!.startsWith('file:') ? fileURLToPath(match[2]!) : match[2]!;
  return { name: match[1]!, importer: sourceOfMirror(where) ?? where };
}

/**
 * What to tell the user, after `Could not load <label>: `. `file` is the
 * module that was being loaded (absolute) and `label` its name in messages
 * (relative to the project), so another of the user's files it imports is
 * named the same way.
 */
export function missingPackageReason(missing: MissingPackage, file: string, label: string): string {
  const { name, importer } = missing;
  if (importer.split(/[\\/]/).includes('node_modules')) {
    // A package of the project's needs another that is missing: an install cut short, not the user's import.
    return `the package '${name}', which ${importer} needs, is not installed: reinstall the project's packages (npm install)`;
  }
  const root = file.endsWith(sep + label) ? file.slice(0, -label.length) : process.cwd();
  const who = importer === file ? 'it imports' : `${relative(root, importer)} imports`;
  return `${who} the package '${name}', which is not installed: run \`npm install ${name}\` in the project`;
}
