/**
 * Type-checks a project with its own TypeScript compiler. seine loads
 * spiders by stripping their types (projects.md, "How seine loads
 * TypeScript"), so a misspelt ItemLoader field crawls happily; `seine check`
 * runs this first. The compiler is the project's (`typescript` resolved from
 * the project folder, as `npx tsc` there would find it), never seine's own:
 * the project pins its version and its tsconfig is written for it. It runs
 * as `tsc --noEmit -p tsconfig.json --pretty false` in a child process and
 * its output is parsed, which reads the same from TypeScript 5.x (a
 * JavaScript compiler) and 7 (a native one whose `bin/tsc` starts it).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

export interface ProjectTypeScript {
  readonly version: string;
  /** The package's `bin.tsc`, a Node script in every version. */
  readonly tscPath: string;
}

/** One diagnostic of `--pretty false` output; `file` is null for one about the whole program (a bad option). */
export interface TypeDiagnostic {
  readonly file: string | null;
  readonly line: number;
  readonly column: number;
  readonly category: string;
  readonly code: string;
  readonly message: string;
}

export type TypeCheckResult =
  | { readonly kind: 'no-typescript' }
  | { readonly kind: 'no-tsconfig'; readonly tsconfig: string }
  | { readonly kind: 'checked'; readonly version: string; readonly status: number; readonly diagnostics: readonly TypeDiagnostic[]; readonly output: string };

/** The `typescript` package the project folder resolves, or null when there is none. */
export function findProjectTypeScript(root: string): ProjectTypeScript | null {
  let packageJson: string;
  try {
    packageJson = createRequire(join(root, 'package.json')).resolve('typescript/package.json');
  } catch {
    return null;
  }
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: string; bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.['tsc'];
  if (bin === undefined) return null;
  return { version: pkg.version ?? 'unknown', tscPath: resolve(dirname(packageJson), bin) };
}

const LOCATED = /^(.+)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const GLOBAL = /^(error|warning|message) (TS\d+): (.*)$/;

/** Parses tsc's `--pretty false` output; indented lines continue the diagnostic above them. */
export function parseTscOutput(text: string): TypeDiagnostic[] {
  const diagnostics: TypeDiagnostic[] = [];
  for (const line of text.split(/\r?\n/)) {
    const located = LOCATED.exec(line);
    const global = located === null ? GLOBAL.exec(line) : null;
    if (located !== null) {
      const [, file, row, column, category, code, message] = located as unknown as [string, string, string, string, string, string, string];
      diagnostics.push({ file, line: Number(row), column: Number(column), category, code, message });
    } else if (global !== null) {
      const [, category, code, message] = global as unknown as [string, string, string, string];
      diagnostics.push({ file: null, line: 0, column: 0, category, code, message });
    } else if (/^\s+\S/.test(line) && diagnostics.length > 0) {
      const last = diagnostics.pop()!;
      diagnostics.push({ ...last, message: `${last.message}\n${line}` });
    }
  }
  return diagnostics;
}

function run(command: string, args: readonly string[], cwd: string): Promise<{ status: number; output: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolveRun({ status: code ?? (signal === null ? 1 : 128), output: Buffer.concat(chunks).toString('utf8') }));
  });
}

/** Runs the project's `tsc --noEmit` over its tsconfig.json. */
export async function typeCheckProject(root: string): Promise<TypeCheckResult> {
  const typescript = findProjectTypeScript(root);
  if (typescript === null) return { kind: 'no-typescript' };
  const tsconfig = join(root, 'tsconfig.json');
  if (!existsSync(tsconfig)) return { kind: 'no-tsconfig', tsconfig };
  const { status, output } = await run(process.execPath, [typescript.tscPath, '--noEmit', '-p', tsconfig, '--pretty', 'false'], root);
  return { kind: 'checked', version: typescript.version, status, diagnostics: parseTscOutput(output), output };
}

/**
 * What `seine check` prints: each diagnostic as `file:line:col - error
 * TSxxxx: message` (its path from `cwd`, so a terminal can open it), then
 * one summary line. `passed` is false when the compiler found errors.
 */
export function typeCheckReport(result: TypeCheckResult, root: string, cwd: string): { readonly lines: readonly string[]; readonly passed: boolean } {
  if (result.kind === 'no-typescript') {
    return { lines: ['TypeScript is not installed in this project, so its types were not checked: add it with `npm install --save-dev typescript`'], passed: true };
  }
  if (result.kind === 'no-tsconfig') {
    return { lines: [`No tsconfig.json in ${relative(cwd, root) || '.'}, so the project's types were not checked: \`seine startproject\` writes one to start from`], passed: true };
  }
  const lines = result.diagnostics.map((d) => {
    const where = d.file === null ? '' : `${relative(cwd, resolve(root, d.file))}:${d.line}:${d.column} - `;
    return `${where}${d.category} ${d.code}: ${d.message}`;
  });
  const errors = result.diagnostics.filter((d) => d.category === 'error').length;
  const compiler = `TypeScript ${result.version}`;
  if (result.status !== 0 && errors === 0) {
    // Not a type error: the compiler itself failed (a missing native binary, a crash); its own words say why.
    const first = result.output.trim().split(/\r?\n/)[0] ?? '';
    lines.push(`The project's TypeScript compiler (${compiler}) exited with status ${result.status}${first === '' ? '' : `: ${first}`}`);
    return { lines, passed: false };
  }
  if (errors === 0) return { lines: [...lines, `Type check passed (${compiler})`], passed: true };
  lines.push(`Type check failed (${compiler}): ${errors} error${errors === 1 ? '' : 's'}; \`seine check --no-typecheck\` checks the contracts without it`);
  return { lines, passed: false };
}

/** Type-checks the project and writes the report; false when it found type errors (or the compiler failed). */
export async function reportTypeCheck(root: string, cwd: string, out: { write(text: string): unknown }): Promise<boolean> {
  const { lines, passed } = typeCheckReport(await typeCheckProject(root), root, cwd);
  out.write(lines.map((line) => `${line}\n`).join(''));
  return passed;
}
