/**
 * Where a compiled module names other modules: the string literal of every
 * `import … from`, `export … from`, bare `import '…'` and `import('…')` with
 * a literal argument, with its position in the text, so the loader can put
 * another URL in its place. Parsed with acorn (the shell's parser too), not
 * matched with a regex: a specifier-like string inside a template or a
 * comment must stay as it is.
 */
import { parse, type Node } from 'acorn';
import { simple } from 'acorn-walk';

export interface ImportSpecifier {
  /** The specifier as written, e.g. './items.js' or 'seine'. */
  readonly value: string;
  /** The literal's span in the text, quotes included. */
  readonly start: number;
  readonly end: number;
}

interface SourceLiteral extends Node {
  readonly value: unknown;
}

export function importSpecifiers(code: string): ImportSpecifier[] {
  const found: ImportSpecifier[] = [];
  const add = (source: SourceLiteral | null | undefined): void => {
    if (source?.type === 'Literal' && typeof source.value === 'string') {
      found.push({ value: source.value, start: source.start, end: source.end });
    }
  };
  const ast = parse(code, { ecmaVersion: 'latest', sourceType: 'module' });
  const withSource = (node: Node): void => add((node as unknown as { source?: SourceLiteral | null }).source);
  simple(ast, {
    ImportDeclaration: withSource,
    ExportNamedDeclaration: withSource,
    ExportAllDeclaration: withSource,
    ImportExpression: withSource,
  });
  return found.sort((a, b) => a.start - b.start);
}

/** `code` with each specifier's literal replaced by the JSON string `replacement(specifier)` gives (undefined: kept). */
export function replaceSpecifiers(code: string, specifiers: readonly ImportSpecifier[], replacement: (value: string) => string | undefined): string {
  let out = '';
  let at = 0;
  for (const specifier of specifiers) {
    const next = replacement(specifier.value);
    if (next === undefined) continue;
    out += code.slice(at, specifier.start) + JSON.stringify(next);
    at = specifier.end;
  }
  return out + code.slice(at);
}
