/**
 * One TypeScript file turned into an ES module by esbuild (the compiler tsx
 * runs on, already a dependency). Types go; everything else stays as
 * written. `import.meta.url`, `.filename` and `.dirname` are replaced by the
 * source file's own, because the compiled file runs from another folder
 * (mirror-path.ts) and a spider reading `new URL('./data.json',
 * import.meta.url)` means the file next to its source. The inline source map
 * makes stack traces name the `.ts` file and its lines.
 *
 * esbuild is imported on first use (about 40 ms and 10 MB), so a command
 * whose compiled files are all cached never loads it.
 */
import { dirname, extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lazyModule } from '../../errors/lazy-package.js';

export interface TranspileOptions {
  /** The text of the tsconfig.json that applies, as tsx would read it; undefined: none. */
  readonly tsconfig: string | undefined;
}

/** esbuild's complaint about the source, as one line naming the file, line and column. */
export class TranspileError extends Error {}

interface EsbuildFailure {
  readonly errors?: ReadonlyArray<{ text: string; location?: { file: string; line: number; column: number } | null }>;
}

const LOADERS: Readonly<Record<string, 'ts' | 'tsx' | 'js'>> = { '.tsx': 'tsx', '.mjs': 'js' };

/** esbuild (a native binary), loaded by the first TypeScript file seine compiles. */
const esbuild = lazyModule('esbuild', 'compiling TypeScript', () => import('esbuild'));
/** True once a transpile has loaded esbuild: only then is there a service process to stop. */
let esbuildUsed = false;

export async function transpile(source: string, file: string, options: TranspileOptions): Promise<string> {
  esbuildUsed = true;
  const { transform } = await esbuild();
  try {
    const result = await transform(source, {
      loader: LOADERS[extname(file)] ?? 'ts',
      format: 'esm',
      target: 'node20',
      sourcemap: 'inline',
      sourcefile: file,
      logLevel: 'silent',
      tsconfigRaw: options.tsconfig,
      define: {
        'import.meta.url': JSON.stringify(pathToFileURL(file).href),
        'import.meta.filename': JSON.stringify(file),
        'import.meta.dirname': JSON.stringify(dirname(file)),
      },
    });
    return result.code;
  } catch (error) {
    const first = (error as EsbuildFailure).errors?.[0];
    if (first === undefined) throw error;
    const where = first.location ? `${first.location.file}:${first.location.line}:${first.location.column + 1}` : file;
    throw new TranspileError(`${where}: ${first.text}`, { cause: error });
  }
}

/** Lets the esbuild service process go; the next transpile starts it again. */
export async function stopTranspiler(): Promise<void> {
  if (esbuildUsed) await (await esbuild()).stop();
}
