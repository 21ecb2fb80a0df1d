/**
 * The XPath 1.0 core function library (https://www.w3.org/TR/xpath-10/#corelib),
 * with lxml's numeric details where it departs from the letter of the spec
 * (round(), substring() bounds). Each function is a builder: it receives its
 * arguments' compiled code and returns the call's code, so arguments are
 * converted with the conversion closure chosen at compile time.
 */
import { ATTRIBUTE, ELEMENT, PROCESSING_INSTRUCTION, stringValue, type DomNode } from '../dom/node.js';
import {
  booleanCode,
  constantCode,
  nodeSetCode,
  numberCode,
  stringCode,
  USES_POSITION,
  USES_SIZE,
  type Code,
  type Fn,
} from './code.js';
import { NAMESPACE, XML_NAMESPACE_URI } from './namespace-nodes.js';
import { codePointLength, normalizeSpace, substring, translate } from './strings.js';
import { stringToNumber } from './values.js';

export interface CallSite {
  /** The function's name as written. */
  readonly name: string;
  readonly pos: number;
  fail(reason: string): never;
}

export interface FunctionDef {
  readonly min: number;
  readonly max: number;
  /** Reads neither the context node, position nor size: a call on constants can be computed at compile time. */
  readonly pure: boolean;
  build(args: readonly Code[], site: CallSite): Code;
}

export function depsOf(args: readonly Code[]): number {
  let deps = 0;
  for (const a of args) deps |= a.deps;
  return deps;
}

export function describeType(code: Code): string {
  return code.type === 'any' ? 'a variable (never a node-set)' : `a ${code.type}`;
}

/** The node-set code of argument `index`, or a compile error naming the function. */
export function nodeSetArg(args: readonly Code[], index: number, site: CallSite): NonNullable<Code['set']> {
  const arg = args[index]!;
  if (arg.set === null) site.fail(`${site.name}() needs a node-set as argument ${index + 1}, got ${describeType(arg)}`);
  return arg.set;
}

/** Unary string function of the argument, or of the context node's string-value when called without one. */
function stringOrContext(args: readonly Code[], f: (s: string) => string): Code {
  const arg = args[0];
  if (arg === undefined) return stringCode((n) => f(stringValue(n)), 0);
  const str = arg.str;
  return stringCode((n, p, s, rt) => f(str(n, p, s, rt)), arg.deps);
}

/** name(), local-name(), namespace-uri() of the first node of the argument, or of the context node. */
function nodeNameFunction(args: readonly Code[], site: CallSite, part: (n: DomNode) => string): Code {
  if (args.length === 0) return stringCode((n) => part(n), 0);
  const first = nodeSetArg(args, 0, site).first;
  return stringCode((n, p, s, rt) => {
    const f = first(n, p, s, rt);
    return f === null ? '' : part(f);
  }, args[0]!.deps);
}

function qualifiedName(n: DomNode): string {
  const k = n.kind;
  return k === ELEMENT || k === ATTRIBUTE || k === PROCESSING_INSTRUCTION || k === NAMESPACE ? n.name : '';
}

function localName(n: DomNode): string {
  if (n.kind === ELEMENT || n.kind === ATTRIBUTE) return n.localName;
  return n.kind === PROCESSING_INSTRUCTION || n.kind === NAMESPACE ? n.name : '';
}

function namespaceUri(n: DomNode): string {
  return n.kind === ELEMENT || n.kind === ATTRIBUTE ? n.ns : '';
}

/** lxml's round(): values in [-0.5, 0.5) keep their sign as zero; others go to floor(x + 0.5) computed exactly. */
export function xpathRound(x: number): number {
  if (x >= -0.5 && x < 0.5) return x * 0;
  const r = Math.floor(x);
  return x - r >= 0.5 ? r + 1 : r;
}

function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * First element (document order) whose ID is `value`. lxml knows IDs from
 * `id` attributes in HTML and from `xml:id` anywhere; the tree does not say
 * whether it came from HTML, so `id` attributes count in XML documents too
 * (where lxml, without a DTD, finds nothing).
 */
function elementById(root: DomNode, value: string): DomNode | null {
  if (root.children.length === 0) return null;
  let n: DomNode | null = root.children[0]!;
  while (n !== null) {
    if (n.kind === ELEMENT) {
      const attrs = n.attrs;
      for (let i = 0; i < attrs.length; i++) {
        const a = attrs[i]!;
        if (a.data === value && (a.name === 'id' || a.name === 'xml:id' || (a.localName === 'id' && a.ns === XML_NAMESPACE_URI))) return n;
      }
    }
    const ch: DomNode[] = n.children;
    if (ch.length > 0) n = ch[0]!;
    else {
      let cur: DomNode = n;
      n = null;
      while (cur.parent !== null) {
        const p: DomNode = cur.parent;
        if (cur.index + 1 < p.children.length) {
          n = p.children[cur.index + 1]!;
          break;
        }
        cur = p;
      }
    }
  }
  return null;
}

function idLookup(context: DomNode, text: string, out: DomNode[]): void {
  let root = context;
  while (root.parent !== null) root = root.parent;
  // libxml2 skips leading blanks but keeps them in the first token, so
  // id("  a b") looks up "  a" (finding nothing) and "b"; lxml users get that.
  let start = 0;
  let i = 0;
  while (i < text.length && isXmlSpace(text.charCodeAt(i))) i++;
  while (i < text.length) {
    while (i < text.length && !isXmlSpace(text.charCodeAt(i))) i++;
    const found = elementById(root, text.slice(start, i));
    if (found !== null && !out.includes(found)) out.push(found);
    while (i < text.length && isXmlSpace(text.charCodeAt(i))) i++;
    start = i;
  }
}

/** lang(): the nearest xml:lang (XML namespace only: an HTML `lang` attribute does not count, as in lxml). */
function languageOf(n: DomNode): string | null {
  for (let cur: DomNode | null = n; cur !== null; cur = cur.parent) {
    if (cur.kind !== ELEMENT) continue;
    for (const a of cur.attrs) if (a.localName === 'lang' && a.ns === XML_NAMESPACE_URI) return a.data;
  }
  return null;
}

function langMatches(lang: string, wanted: string): boolean {
  if (lang.length < wanted.length) return false;
  for (let i = 0; i < wanted.length; i++) {
    let a = lang.charCodeAt(i);
    let b = wanted.charCodeAt(i);
    if (a >= 0x61 && a <= 0x7a) a -= 32;
    if (b >= 0x61 && b <= 0x7a) b -= 32;
    if (a !== b) return false;
  }
  return lang.length === wanted.length || lang.charCodeAt(wanted.length) === 0x2d;
}

function def(min: number, max: number, pure: boolean, build: FunctionDef['build']): FunctionDef {
  return { min, max, pure, build };
}

function strArgs(args: readonly Code[]): Fn<string>[] {
  return args.map((a) => a.str);
}

export const CORE_FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map<string, FunctionDef>([
  ['last', def(0, 0, false, () => numberCode((_n, _p, s) => s, USES_SIZE))],
  ['position', def(0, 0, false, () => numberCode((_n, p) => p, USES_POSITION))],
  [
    'count',
    def(1, 1, true, (args, site) => {
      const count = nodeSetArg(args, 0, site).count;
      return numberCode(count, args[0]!.deps);
    }),
  ],
  [
    'id',
    def(1, 1, false, (args) => {
      const arg = args[0]!;
      const set = arg.set;
      const str = arg.str;
      return nodeSetCode(
        {
          all: (n, p, s, rt) => {
            const out: DomNode[] = [];
            if (set !== null) for (const node of set.all(n, p, s, rt)) idLookup(n, stringValue(node), out);
            else idLookup(n, str(n, p, s, rt), out);
            return out.sort((a, b) => a.order - b.order);
          },
        },
        arg.deps,
      );
    }),
  ],
  ['local-name', def(0, 1, false, (args, site) => nodeNameFunction(args, site, localName))],
  ['namespace-uri', def(0, 1, false, (args, site) => nodeNameFunction(args, site, namespaceUri))],
  ['name', def(0, 1, false, (args, site) => nodeNameFunction(args, site, qualifiedName))],
  ['string', def(0, 1, false, (args) => stringOrContext(args, (s) => s))],
  [
    'concat',
    def(2, Infinity, true, (args) => {
      const parts = strArgs(args);
      if (parts.length === 2) {
        const [a, b] = parts as [Fn<string>, Fn<string>];
        return stringCode((n, p, s, rt) => a(n, p, s, rt) + b(n, p, s, rt), depsOf(args));
      }
      return stringCode((n, p, s, rt) => {
        let out = '';
        for (let i = 0; i < parts.length; i++) out += parts[i]!(n, p, s, rt);
        return out;
      }, depsOf(args));
    }),
  ],
  [
    'starts-with',
    def(2, 2, true, (args) => {
      const [a, b] = strArgs(args) as [Fn<string>, Fn<string>];
      return booleanCode((n, p, s, rt) => a(n, p, s, rt).startsWith(b(n, p, s, rt)), depsOf(args));
    }),
  ],
  [
    'contains',
    def(2, 2, true, (args) => {
      const [a, b] = strArgs(args) as [Fn<string>, Fn<string>];
      return booleanCode((n, p, s, rt) => a(n, p, s, rt).includes(b(n, p, s, rt)), depsOf(args));
    }),
  ],
  [
    'substring-before',
    def(2, 2, true, (args) => {
      const [a, b] = strArgs(args) as [Fn<string>, Fn<string>];
      return stringCode((n, p, s, rt) => {
        const str = a(n, p, s, rt);
        const at = str.indexOf(b(n, p, s, rt));
        return at < 0 ? '' : str.slice(0, at);
      }, depsOf(args));
    }),
  ],
  [
    'substring-after',
    def(2, 2, true, (args) => {
      const [a, b] = strArgs(args) as [Fn<string>, Fn<string>];
      return stringCode((n, p, s, rt) => {
        const str = a(n, p, s, rt);
        const needle = b(n, p, s, rt);
        const at = str.indexOf(needle);
        return at < 0 ? '' : str.slice(at + needle.length);
      }, depsOf(args));
    }),
  ],
  [
    'substring',
    def(2, 3, true, (args) => {
      const str = args[0]!.str;
      const start = args[1]!.num;
      const length = args[2]?.num;
      if (length === undefined) return stringCode((n, p, s, rt) => substring(str(n, p, s, rt), start(n, p, s, rt)), depsOf(args));
      return stringCode(
        (n, p, s, rt) => substring(str(n, p, s, rt), start(n, p, s, rt), length(n, p, s, rt)),
        depsOf(args),
      );
    }),
  ],
  [
    'string-length',
    def(0, 1, false, (args) => {
      const arg = args[0];
      if (arg === undefined) return numberCode((n) => codePointLength(stringValue(n)), 0);
      const str = arg.str;
      return numberCode((n, p, s, rt) => codePointLength(str(n, p, s, rt)), arg.deps);
    }),
  ],
  ['normalize-space', def(0, 1, false, (args) => stringOrContext(args, normalizeSpace))],
  [
    'translate',
    def(3, 3, true, (args) => {
      const [a, b, c] = strArgs(args) as [Fn<string>, Fn<string>, Fn<string>];
      return stringCode((n, p, s, rt) => translate(a(n, p, s, rt), b(n, p, s, rt), c(n, p, s, rt)), depsOf(args));
    }),
  ],
  ['boolean', def(1, 1, true, (args) => booleanCode(args[0]!.bool, args[0]!.deps))],
  [
    'not',
    def(1, 1, true, (args) => {
      const bool = args[0]!.bool;
      return booleanCode((n, p, s, rt) => !bool(n, p, s, rt), args[0]!.deps);
    }),
  ],
  ['true', def(0, 0, true, () => constantCode(true))],
  ['false', def(0, 0, true, () => constantCode(false))],
  [
    'lang',
    def(1, 1, false, (args) => {
      const str = args[0]!.str;
      return booleanCode((n, p, s, rt) => {
        const lang = languageOf(n);
        return lang !== null && langMatches(lang, str(n, p, s, rt));
      }, args[0]!.deps);
    }),
  ],
  [
    'number',
    def(0, 1, false, (args) => {
      const arg = args[0];
      if (arg === undefined) return numberCode((n) => stringToNumber(stringValue(n)), 0);
      return numberCode(arg.num, arg.deps);
    }),
  ],
  [
    'sum',
    def(1, 1, true, (args, site) => {
      const all = nodeSetArg(args, 0, site).all;
      return numberCode((n, p, s, rt) => {
        let total = 0;
        for (const node of all(n, p, s, rt)) total += stringToNumber(stringValue(node));
        return total;
      }, args[0]!.deps);
    }),
  ],
  ['floor', def(1, 1, true, (args) => unaryNumber(args, Math.floor))],
  ['ceiling', def(1, 1, true, (args) => unaryNumber(args, Math.ceil))],
  ['round', def(1, 1, true, (args) => unaryNumber(args, xpathRound))],
]);

function unaryNumber(args: readonly Code[], f: (x: number) => number): Code {
  const num = args[0]!.num;
  return numberCode((n, p, s, rt) => f(num(n, p, s, rt)), args[0]!.deps);
}

