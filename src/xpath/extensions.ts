/**
 * Functions beyond XPath 1.0 that parsel makes available: `has-class()`
 * (parsel's own, in no namespace) and the EXSLT sets module
 * (http://exslt.org/sets, prefix `set` in parsel), with libxslt's semantics.
 * The EXSLT regular expressions live in exslt-regexp.ts.
 */
import { ELEMENT, stringValue, type DomNode } from '../dom/node.js';
import { booleanCode, nodeSetCode, type Code, type Fn } from './code.js';
import { depsOf, nodeSetArg, type CallSite, type FunctionDef } from './functions.js';
import { EXSLT_REGEXP_FUNCTIONS, EXSLT_REGEXP_NS } from './exslt-regexp.js';
import { containsWord } from './strings.js';

export const EXSLT_SETS_NS = 'http://exslt.org/sets';

/** HTML5 whitespace, which parsel's has-class splits on (it includes form feed; XPath's does not). */
function isHtmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c;
}

function hasHtmlSpace(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (isHtmlSpace(s.charCodeAt(i))) return true;
  return false;
}

function classAttribute(n: DomNode): string | null {
  if (n.kind !== ELEMENT) return null;
  const attrs = n.attrs;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    if (a.localName === 'class' && a.ns === '') return a.data;
  }
  return null;
}

/**
 * parsel's rule: " " + class + " " with whitespace runs collapsed must
 * contain " " + wanted + " ". For a plain word that is word membership,
 * tested without building strings; other values (empty, or with spaces:
 * `has-class("a b")` matches class="x a  b") take parsel's literal route.
 */
function classTest(wanted: string): (cls: string) => boolean {
  if (wanted !== '' && !hasHtmlSpace(wanted)) return (cls) => containsWord(cls, wanted, isHtmlSpace);
  const needle = ` ${wanted} `;
  return (cls) => ` ${cls} `.replace(/[ \t\n\r\f]+/g, ' ').includes(needle);
}

const hasClass: FunctionDef = {
  min: 0,
  max: Infinity,
  pure: false,
  build(args, site) {
    if (args.length === 0) site.fail('has-class must have at least 1 argument');
    for (const a of args) {
      if (a.type !== 'string' && a.type !== 'any') site.fail(`has-class arguments must be strings, got a ${a.type}`);
    }
    const tests: Fn<(cls: string) => boolean>[] = args.map((a) => {
      if (typeof a.constant === 'string') {
        const fixed = classTest(a.constant);
        return () => fixed;
      }
      const value = a.value;
      return (n, p, s, rt) => {
        const v = value(n, p, s, rt);
        if (typeof v !== 'string') return site.fail(`has-class arguments must be strings, got a ${typeof v}`);
        return classTest(v);
      };
    });
    return booleanCode((n, p, s, rt) => {
      const cls = classAttribute(n);
      if (cls === null) return false;
      for (let i = 0; i < tests.length; i++) if (!tests[i]!(n, p, s, rt)(cls)) return false;
      return true;
    }, depsOf(args));
  },
};

export const NULL_NAMESPACE_EXTENSIONS: ReadonlyMap<string, FunctionDef> = new Map([['has-class', hasClass]]);

/** Builder for a set function of two node-sets returning a node-set. */
function binarySetFunction(f: (a: DomNode[], b: DomNode[]) => DomNode[]): FunctionDef {
  return {
    min: 2,
    max: 2,
    pure: true,
    build(args: readonly Code[], site: CallSite) {
      const a = nodeSetArg(args, 0, site).all;
      const b = nodeSetArg(args, 1, site).all;
      return nodeSetCode({ all: (n, p, s, rt) => f(a(n, p, s, rt), b(n, p, s, rt)) }, depsOf(args));
    },
  };
}

const SET_FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map<string, FunctionDef>([
  [
    'difference',
    binarySetFunction((a, b) => {
      const drop = new Set(b);
      return a.filter((n) => !drop.has(n));
    }),
  ],
  [
    'intersection',
    binarySetFunction((a, b) => {
      const keep = new Set(b);
      return a.filter((n) => keep.has(n));
    }),
  ],
  [
    'distinct',
    {
      min: 1,
      max: 1,
      pure: true,
      build(args, site) {
        const all = nodeSetArg(args, 0, site).all;
        return nodeSetCode(
          {
            all: (n, p, s, rt) => {
              const seen = new Set<string>();
              const out: DomNode[] = [];
              for (const node of all(n, p, s, rt)) {
                const v = stringValue(node);
                if (!seen.has(v)) {
                  seen.add(v);
                  out.push(node);
                }
              }
              return out;
            },
          },
          args[0]!.deps,
        );
      },
    },
  ],
  [
    'has-same-node',
    {
      min: 2,
      max: 2,
      pure: true,
      build(args, site) {
        const a = nodeSetArg(args, 0, site).all;
        const b = nodeSetArg(args, 1, site).all;
        return booleanCode((n, p, s, rt) => {
          const other = new Set(b(n, p, s, rt));
          return a(n, p, s, rt).some((x) => other.has(x));
        }, depsOf(args));
      },
    },
  ],
  // libxslt: with an empty second set the first is returned whole; when the
  // second set's first node is not in the first set the result is empty.
  [
    'leading',
    binarySetFunction((a, b) => {
      if (b.length === 0) return a;
      const at = a.indexOf(b[0]!);
      return at < 0 ? [] : a.slice(0, at);
    }),
  ],
  [
    'trailing',
    binarySetFunction((a, b) => {
      if (b.length === 0) return a;
      const at = a.indexOf(b[0]!);
      return at < 0 ? [] : a.slice(at + 1);
    }),
  ],
]);

/** Extension functions by namespace URI, then local name. */
export const EXTENSION_NAMESPACES: ReadonlyMap<string, ReadonlyMap<string, FunctionDef>> = new Map([
  [EXSLT_REGEXP_NS, EXSLT_REGEXP_FUNCTIONS],
  [EXSLT_SETS_NS, SET_FUNCTIONS],
]);
