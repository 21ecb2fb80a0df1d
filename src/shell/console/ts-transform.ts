/**
 * The `ts` console's compiler: each input is TypeScript, turned into the
 * JavaScript the Node REPL evaluates by esbuild (types, interfaces, `as`,
 * enums). esbuild is what tsx already runs on, so this adds no new compiler.
 */
import { transformSync } from 'esbuild';

export type TransformResult =
  | { readonly kind: 'code'; readonly code: string }
  /** The input stops in the middle of something (an open brace, a template): the REPL asks for more lines. */
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'error'; readonly message: string };

interface EsbuildFailure {
  errors?: ReadonlyArray<{ text: string; location?: { line: number; column: number } | null }>;
}

// esbuild's words when the input simply stops early: the REPL then asks for another line.
function isIncomplete(text: string, input: string): boolean {
  if (/end of file/.test(text)) return true;
  // An open template literal (`…) is reported as an unterminated string.
  return /^Unterminated (string|template)/.test(text) && (input.match(/`/g)?.length ?? 0) % 2 === 1;
}

function compile(code: string): string {
  // No module format: the code stays a script, so top-level `await` and `let` behave as in the REPL.
  // verbatimModuleSyntax: an import whose names are not used on the same line is kept (console-imports.ts
  // turns it into declarations); esbuild would otherwise drop it as possibly type-only. `import type` still goes.
  return transformSync(code, { loader: 'ts', target: 'node20', sourcemap: false, logLevel: 'silent', tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } } }).code;
}

export function transformTypeScript(input: string): TransformResult {
  // As the Node REPL does: `{ a: 1 }` alone is an object, not a block.
  if (/^\s*\{/.test(input) && /\}\s*$/.test(input) && !/;\s*$/.test(input)) {
    try {
      return { kind: 'code', code: compile(`(${input.trim()})`) };
    } catch {
      // a real block: fall through
    }
  }
  try {
    return { kind: 'code', code: compile(input) };
  } catch (error) {
    const first = (error as EsbuildFailure).errors?.[0];
    if (first === undefined) return { kind: 'error', message: String(error) };
    if (isIncomplete(first.text, input)) return { kind: 'incomplete' };
    const where = first.location ? ` (${first.location.line}:${first.location.column + 1})` : '';
    return { kind: 'error', message: `${first.text}${where}` };
  }
}
