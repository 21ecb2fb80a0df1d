/**
 * EXSLT regular expressions (http://exslt.org/regular-expressions), as lxml
 * implements them and parsel registers them under the prefix `re`:
 *
 * - `re:test(string, pattern, flags?)` → boolean (Python `re.search`).
 * - `re:match(string, pattern, flags?)` → node-set of `<match>` elements in
 *   a new `<matches>` document: without `g`, the whole match then every
 *   group ('' for groups that did not take part); with `g`, one per match:
 *   the match when the pattern has no group, the group when it has one, the
 *   groups joined when it has several (Python `findall`). No match: empty.
 * - `re:replace(string, pattern, flags, replacement)` → string, first match
 *   or all with `g`; the replacement is a Python template (`\1`, `\g<name>`).
 *
 * Flags: `i` ignores case, `g` is global; other letters are ignored. The
 * arguments become strings as lxml's Python code makes them: a node-set's
 * first node's string-value, a number as Python prints a float (`1.0`), a
 * boolean as `True`/`False`.
 */
import { DOCUMENT, ELEMENT, numberTree, TEXT, DomNode } from '../dom/node.js';
import { booleanCode, nodeSetCode, stringCode, type Code, type Fn } from './code.js';
import { depsOf, type CallSite, type FunctionDef } from './functions.js';
import { pythonFloatRepr } from '../python/float-repr.js';
import { compileTemplate, PythonRegexError, translatePythonRegex } from '../python/regex.js';
import { toStringValue } from './values.js';
import { toLinear, type LinearRegex } from './linear-regex.js';

export const EXSLT_REGEXP_NS = 'http://exslt.org/regular-expressions';

interface CompiledRegex {
  readonly once: RegExp;
  readonly global: RegExp;
  readonly groupCount: number;
  readonly groupNames: readonly string[];
  /** RE2 (linear time) when it runs this pattern exactly; null: the RegExps above. */
  readonly linear: LinearRegex | null;
}

const cache = new Map<string, CompiledRegex>();
const CACHE_LIMIT = 500;

function compileRegex(pattern: string, ignoreCase: boolean, site: CallSite): CompiledRegex {
  const key = (ignoreCase ? 'i' : '-') + pattern;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let compiled: CompiledRegex;
  try {
    const t = translatePythonRegex(pattern);
    const flags = ignoreCase && !t.flags.includes('i') ? t.flags + 'i' : t.flags;
    const once = new RegExp(t.source, flags);
    const groupCount = new RegExp(`${t.source}|`, flags).exec('')!.length - 1;
    compiled = { once, global: new RegExp(t.source, flags + 'g'), groupCount, groupNames: t.groupNames, linear: toLinear(t.source, flags) };
  } catch (err) {
    const detail = err instanceof PythonRegexError ? err.message : (err as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
    return site.fail(`${site.name}() got an invalid regular expression ${JSON.stringify(pattern)}: ${detail}`);
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}

/** An argument converted to a string the way lxml's Python extension receives it. */
function pythonString(code: Code): Fn<string> {
  switch (code.type) {
    case 'string':
    case 'nodeset':
      return code.str;
    case 'number': {
      const num = code.num;
      return (n, p, s, rt) => pythonFloatRepr(num(n, p, s, rt));
    }
    case 'boolean': {
      const bool = code.bool;
      return (n, p, s, rt) => (bool(n, p, s, rt) ? 'True' : 'False');
    }
    default: {
      const value = code.value;
      return (n, p, s, rt) => {
        const v = value(n, p, s, rt);
        if (typeof v === 'number') return pythonFloatRepr(v);
        if (typeof v === 'boolean') return v ? 'True' : 'False';
        return toStringValue(v);
      };
    }
  }
}

/** Regex for a pattern argument: compiled once at compile time when the pattern and flags are constants. */
function regexFor(patternArg: Code, flagsArg: Code | undefined, site: CallSite): Fn<CompiledRegex> {
  const pattern = pythonString(patternArg);
  const flags = flagsArg === undefined ? () => '' : pythonString(flagsArg);
  if (patternArg.constant !== undefined && (flagsArg === undefined || flagsArg.constant !== undefined)) {
    const fixed = compileRegex(pattern(null as never, 1, 1, null as never), flags(null as never, 1, 1, null as never).includes('i'), site);
    return () => fixed;
  }
  return (n, p, s, rt) => compileRegex(pattern(n, p, s, rt), flags(n, p, s, rt).includes('i'), site);
}

function flagsFn(flagsArg: Code | undefined): Fn<string> {
  return flagsArg === undefined ? () => '' : pythonString(flagsArg);
}

let nextSyntheticOrder = 0;

/**
 * The `<matches><match>…</match>…</matches>` document re:match returns.
 * Its nodes get negative document-order numbers, below every parsed
 * document, so a union with them stays sorted (lxml also lists them first).
 */
function matchDocument(values: readonly string[]): DomNode[] {
  const doc = new DomNode(DOCUMENT, '', '');
  const root = new DomNode(ELEMENT, 'matches', '');
  doc.append(root);
  const out: DomNode[] = [];
  for (const v of values) {
    const m = new DomNode(ELEMENT, 'match', '');
    m.append(new DomNode(TEXT, '', v));
    root.append(m);
    out.push(m);
  }
  numberTree(doc);
  const size = 2 + 2 * values.length;
  const base = nextSyntheticOrder - size;
  nextSyntheticOrder = base;
  doc.order = base;
  root.order = base + 1;
  for (const m of out) {
    m.order += base;
    m.children[0]!.order += base;
  }
  return out;
}

/** Python's re.search: RE2 when it runs the pattern, RegExp otherwise. */
function testRegex(re: CompiledRegex, s: string): boolean {
  return re.linear !== null ? re.linear.test(s) : re.once.test(s);
}

function matchValues(re: CompiledRegex, s: string, global: boolean): string[] {
  const linear = re.linear !== null && re.linear.exactFor(s) ? re.linear : null;
  if (!global) {
    const m = linear !== null ? linear.exec(s) : re.once.exec(s);
    if (m === null) return [];
    return Array.from(m, (g) => g ?? '');
  }
  const values: string[] = [];
  for (const m of linear !== null ? linear.all(s, re.global) : s.matchAll(re.global)) {
    if (re.groupCount === 0) values.push(m[0] ?? '');
    else if (re.groupCount === 1) values.push(m[1] ?? '');
    else values.push(m.slice(1).map((g) => g ?? '').join(''));
  }
  return values;
}

function def(min: number, max: number, build: FunctionDef['build']): FunctionDef {
  return { min, max, pure: true, build };
}

export const EXSLT_REGEXP_FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map<string, FunctionDef>([
  [
    'test',
    def(2, 3, (args, site) => {
      const str = pythonString(args[0]!);
      const regex = regexFor(args[1]!, args[2], site);
      return booleanCode((n, p, s, rt) => testRegex(regex(n, p, s, rt), str(n, p, s, rt)), depsOf(args));
    }),
  ],
  [
    'match',
    def(2, 3, (args, site) => {
      const str = pythonString(args[0]!);
      const regex = regexFor(args[1]!, args[2], site);
      const flags = flagsFn(args[2]);
      return nodeSetCode(
        {
          all: (n, p, s, rt) => {
            const values = matchValues(regex(n, p, s, rt), str(n, p, s, rt), flags(n, p, s, rt).includes('g'));
            return values.length === 0 ? [] : matchDocument(values);
          },
        },
        depsOf(args),
      );
    }),
  ],
  [
    'replace',
    def(4, 4, (args, site) => {
      const str = pythonString(args[0]!);
      const regex = regexFor(args[1]!, args[2], site);
      const flags = flagsFn(args[2]);
      const replacement = pythonString(args[3]!);
      return stringCode((n, p, s, rt) => {
        const re = regex(n, p, s, rt);
        let build: ReturnType<typeof compileTemplate>;
        try {
          build = compileTemplate(replacement(n, p, s, rt), re.groupCount, re.groupNames);
        } catch (err) {
          return site.fail(`re:replace() got an invalid replacement: ${(err as Error).message}`);
        }
        const global = flags(n, p, s, rt).includes('g');
        const subject = str(n, p, s, rt);
        if (re.linear !== null && re.linear.exactFor(subject)) {
          const matches = global ? re.linear.all(subject, re.global) : [re.linear.exec(subject)].filter((m) => m !== null);
          let out = '';
          let last = 0;
          for (const m of matches) {
            out += subject.slice(last, m.index) + build(m.slice(0, re.groupCount + 1) as string[], m.groups);
            last = m.index + m[0]!.length;
          }
          return out + subject.slice(last);
        }
        const target = global ? re.global : re.once;
        return subject.replace(target, (...m: unknown[]) => {
          const last = m[m.length - 1];
          const groups = typeof last === 'object' && last !== null ? (last as Record<string, string | undefined>) : undefined;
          return build(m.slice(0, re.groupCount + 1) as string[], groups);
        });
      }, depsOf(args));
    }),
  ],
]);
