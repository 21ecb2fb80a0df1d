/**
 * `seine startproject`: copies scaffold/project into a new folder, renaming
 * `module` to the project's name and filling in each `.tmpl` file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { SEINE_VERSION } from '../version.js';
import { PROJECT_CONFIG_FILE } from './find-project.js';
import { StartProjectError } from './project-errors.js';
import { PROJECT_TEMPLATE_DIR, TEMPLATE_SUFFIX, camelCaseName, renderTemplate } from './templates.js';

/** Scrapy's rule: the name becomes a folder and a prefix of class names. */
export const PROJECT_NAME = /^[_a-zA-Z]\w*$/;

export interface StartProjectOptions {
  readonly name: string;
  /** The folder as the user typed it; default: the name. */
  readonly dir?: string;
  readonly cwd: string;
  /**
   * What the project's package.json depends on for seine, as `--seine` was
   * typed: a path (to a checkout or a tarball, relative to `cwd`) or any npm
   * spec. Default: the seine that runs the command (seineDependency()).
   */
  readonly seine?: string;
}

export interface StartedProject {
  readonly projectDir: string;
  readonly templateDir: string;
  /** What the command prints: where the project is and the next steps. */
  readonly message: string;
}

/** seine's own folder: scaffold/ sits at its root. */
const SEINE_ROOT = resolve(PROJECT_TEMPLATE_DIR, '..', '..');

/**
 * How the new project depends on seine: on the seine that runs the command,
 * so that `npm install` in the project gets that one. A checkout (not inside
 * node_modules) is named by its folder, `file:/path/to/seine`. An installed
 * copy is named as the project that installed it names it (its package.json's
 * spec, a relative `file:` made absolute: a tarball or a folder), because seine
 * is not on the registry and `^0.1.0` would not resolve; the version range is
 * the last resort (a global install, whose owner has no package.json).
 */
export function seineDependency(root: string = SEINE_ROOT, version: string = SEINE_VERSION): string {
  const parts = root.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return `file:${root}`;
  const owner = parts.slice(0, at).join(sep) || sep;
  return installedSpec(owner) ?? `^${version}`;
}

/** The spec the package.json in `owner` gives for seine, its `file:` paths made absolute; undefined when there is none. */
function installedSpec(owner: string): string | undefined {
  let pkg: Partial<Record<'dependencies' | 'devDependencies' | 'optionalDependencies', Record<string, string>>>;
  try {
    pkg = JSON.parse(readFileSync(join(owner, 'package.json'), 'utf8')) as typeof pkg;
  } catch {
    return undefined;
  }
  const spec = pkg.dependencies?.['seine'] ?? pkg.devDependencies?.['seine'] ?? pkg.optionalDependencies?.['seine'];
  return spec === undefined ? undefined : typedSpec(spec, owner);
}

/**
 * A spec as npm reads it from a package.json in `base`, rewritten to mean the
 * same from anywhere: a path (`./x`, `../x`, `/x`, `~/x`, `file:x`) becomes
 * `file:` and an absolute path; anything else (a range, `github:…`, a URL) is
 * kept.
 */
export function typedSpec(spec: string, base: string): string {
  const path = spec.startsWith('file:') ? spec.slice('file:'.length) : /^(\.{1,2}([\\/]|$)|[\\/]|~[\\/])/.test(spec) ? spec : undefined;
  if (path === undefined) return spec;
  const home = process.env['HOME'];
  const expanded = path.startsWith('~/') && home !== undefined ? join(home, path.slice(2)) : path;
  return `file:${isAbsolute(expanded) ? expanded : resolve(base, expanded)}`;
}

/** The rxjs range seine itself depends on: a project's streams code imports rxjs, and gets the same copy. */
function rxjsRange(root: string = SEINE_ROOT): string {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    return pkg.dependencies?.rxjs ?? '^7.8.0';
  } catch {
    return '^7.8.0';
  }
}

/** npm package names are lower case and may not start with '_' or '.'. */
function packageName(name: string): string {
  return name.toLowerCase().replace(/^_+/, '') || 'project';
}

function copyTemplates(from: string, to: string, moduleName: string, vars: Readonly<Record<string, string>>): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) {
      copyTemplates(source, join(to, entry.name === 'module' ? moduleName : entry.name), moduleName, vars);
    } else if (entry.name.endsWith(TEMPLATE_SUFFIX)) {
      writeFileSync(join(to, entry.name.slice(0, -TEMPLATE_SUFFIX.length)), renderTemplate(readFileSync(source, 'utf8'), vars));
    } else {
      writeFileSync(join(to, entry.name), readFileSync(source));
    }
  }
}

export function startProject({ name, dir, cwd, seine }: StartProjectOptions): StartedProject {
  const typedDir = dir ?? name;
  const projectDir = resolve(cwd, typedDir);
  if (existsSync(join(projectDir, PROJECT_CONFIG_FILE))) {
    throw new StartProjectError(`${PROJECT_CONFIG_FILE} already exists in ${projectDir}: choose another directory`);
  }
  if (!PROJECT_NAME.test(name)) {
    const suggestion = name.replace(/\W/g, '_').replace(/^(\d)/, '_$1');
    throw new StartProjectError(
      `Invalid project name '${name}': project names must begin with a letter and contain only letters, numbers and underscores (e.g. '${suggestion}')`,
    );
  }
  if (existsSync(projectDir) && (!statSync(projectDir).isDirectory() || readdirSync(projectDir).length > 0)) {
    throw new StartProjectError(`Directory ${projectDir} already exists and is not empty: choose another name or directory`);
  }
  const vars = {
    project_name: name,
    ProjectName: camelCaseName(name),
    package_name: packageName(name),
    seine_version: SEINE_VERSION,
    seine_dependency: JSON.stringify(seine === undefined ? seineDependency() : typedSpec(seine, cwd)).slice(1, -1),
    rxjs_range: rxjsRange(),
  };
  copyTemplates(PROJECT_TEMPLATE_DIR, projectDir, name, vars);
  const message = [
    `New Seine project '${name}', using template directory '${PROJECT_TEMPLATE_DIR}', created in:`,
    `    ${projectDir}`,
    '',
    'You can start your first spider with:',
    `    cd ${typedDir}`,
    '    npx seine genspider example example.com',
    '',
  ].join('\n');
  return { projectDir, templateDir: PROJECT_TEMPLATE_DIR, message };
}
