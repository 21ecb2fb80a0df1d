/**
 * seine's XPath 1.0 engine over DomNode.
 *
 * Why seine has its own: xpath.js (on linkedom) was measured 9–19×
 * slower than lxml on the same 30 queries (20 ms vs 2.3 ms on a 10.8 KB
 * page, 280 ms vs 14.5 ms on a 100.7 KB one; docs/dependencies.md), because
 * it interprets the AST and allocates a context per node per step; caching
 * its parse saved only 1–2 %. Here an expression is parsed once (cached by
 * its text), compiled to closures chosen for the operand types, and
 * evaluated over plain `children`/`attrs` arrays with the hot shapes (`//x`,
 * attribute predicates, cssselect's class test) special-cased. Results match lxml's,
 * which parsel returns, down to number formatting (see number-format.ts).
 *
 * Files: lexer → parser (ast) → compiler (code, values, functions,
 * extensions, exslt-regexp) → paths/steps/axes. See docs in each.
 */
import type { DomNode } from '../dom/node.js';
import type { ParsedXPath } from './ast.js';
import type { XPathVariables } from './code.js';
import { compileProgram, type PrefixResolver, type Program } from './compiler.js';
import { XPathError } from './errors.js';
import { EXSLT_REGEXP_NS } from './exslt-regexp.js';
import { EXSLT_SETS_NS } from './extensions.js';
import { XML_NAMESPACE_URI } from './namespace-nodes.js';
import { parseXPath } from './parser.js';
import type { XPathValue } from './values.js';

export type { XPathValue } from './values.js';
export type { XPathVariables } from './code.js';
export { XPathError } from './errors.js';
export { numberToString } from './number-format.js';
export { pythonFloatRepr } from '../python/float-repr.js';
export { NAMESPACE } from './namespace-nodes.js';

export interface XPathContext {
  /** prefix → URI for name tests and function prefixes. `re` and `set` (EXSLT) and `xml` are bound unless overridden. */
  namespaces?: Record<string, string>;
  variables?: XPathVariables;
}

export interface CompiledXPath {
  readonly source: string;
  evaluate(node: DomNode, ctx?: XPathContext): XPathValue;
}

/** Bound in every evaluation, as parsel registers `re` and `set` and XPath always knows `xml`. */
export const DEFAULT_NAMESPACES: Readonly<Record<string, string>> = Object.freeze({
  re: EXSLT_REGEXP_NS,
  set: EXSLT_SETS_NS,
  xml: XML_NAMESPACE_URI,
});

const NO_VARIABLES: XPathVariables = Object.freeze({}) as XPathVariables;
const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

function resolverFor(namespaces: Record<string, string> | undefined): PrefixResolver {
  return (prefix) => {
    if (prefix !== 'xml' && namespaces !== undefined && hasOwn(namespaces, prefix)) return namespaces[prefix];
    return hasOwn(DEFAULT_NAMESPACES, prefix) ? DEFAULT_NAMESPACES[prefix] : undefined;
  };
}

/** Programs per namespace binding; expressions without prefixes have exactly one. */
const BINDINGS_LIMIT = 16;

class CompiledExpression implements CompiledXPath {
  readonly source: string;
  private readonly parsed: ParsedXPath;
  private readonly unprefixed: Program | null;
  private readonly bindings = new Map<string, Program>();

  constructor(parsed: ParsedXPath) {
    this.source = parsed.source;
    this.parsed = parsed;
    this.unprefixed = parsed.prefixes.length === 0 ? guarded(parsed.source, () => compileProgram(parsed, resolverFor(undefined))) : null;
  }

  private programFor(namespaces: Record<string, string> | undefined): Program {
    if (this.unprefixed !== null) return this.unprefixed;
    const resolve = resolverFor(namespaces);
    const key = this.parsed.prefixes.map((p) => resolve(p) ?? '\u0000').join('\u0001');
    let program = this.bindings.get(key);
    if (program === undefined) {
      program = guarded(this.source, () => compileProgram(this.parsed, resolve));
      if (this.bindings.size >= BINDINGS_LIMIT) this.bindings.delete(this.bindings.keys().next().value!);
      this.bindings.set(key, program);
    }
    return program;
  }

  evaluate(node: DomNode, ctx?: XPathContext): XPathValue {
    if (node === null || typeof node !== 'object' || typeof node.kind !== 'number') {
      throw new TypeError(`XPath '${this.source}' needs a DomNode as its context node, got ${node === null ? 'null' : typeof node}`);
    }
    const program = this.programFor(ctx?.namespaces);
    const vars = ctx?.variables ?? NO_VARIABLES;
    for (const ref of program.variables) {
      if (!hasOwn(vars, ref.name)) {
        throw new XPathError(this.source, ref.pos, `undefined variable '$${ref.name}' (pass it in the query's variables)`);
      }
      const v: unknown = vars[ref.name];
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
        throw new XPathError(this.source, ref.pos, `variable '$${ref.name}' must be a string, number or boolean, got ${v === null ? 'null' : typeof v}`);
      }
    }
    try {
      return program.run(node, 1, 1, { vars });
    } catch (err) {
      if (err instanceof XPathError) throw err;
      // A bug of ours, or a malformed tree; still reported against the query, with the cause kept.
      throw new XPathError(this.source, 0, `evaluation failed: ${(err as Error).message}`, { cause: err });
    }
  }
}

/**
 * Runs parse or compile work, turning anything but an XPathError into one:
 * the parser and compiler recurse once per nesting level, so an expression
 * nested thousands deep overflows the stack (RangeError) instead of failing
 * on a rule.
 */
function guarded<T>(source: string, work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof XPathError) throw err;
    const reason = err instanceof RangeError ? 'the expression is nested too deeply to compile' : `compilation failed: ${(err as Error).message}`;
    throw new XPathError(source, 0, reason, { cause: err });
  }
}

const cache = new Map<string, CompiledExpression>();
const CACHE_LIMIT = 2000;

/** Parses and compiles `expr`; the result is cached by the expression's text. Throws XPathError. */
export function compileXPath(expr: string): CompiledXPath {
  if (typeof expr !== 'string') throw new TypeError(`compileXPath needs the expression as a string, got ${typeof expr}`);
  let compiled = cache.get(expr);
  if (compiled === undefined) {
    compiled = guarded(expr, () => new CompiledExpression(parseXPath(expr)));
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(expr, compiled);
  }
  return compiled;
}

export function evaluateXPath(expr: string, node: DomNode, ctx?: XPathContext): XPathValue {
  return compileXPath(expr).evaluate(node, ctx);
}
