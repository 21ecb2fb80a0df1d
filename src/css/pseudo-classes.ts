/**
 * Pseudo-classes (`:first-child`) and functional pseudo-classes
 * (`:nth-child(2n+1)`), with the exact conditions cssselect 1.2 writes.
 *
 * Names are looked up with '-' read as '_' (so `:first_child` works), and the
 * name is checked before the selector it qualifies is translated, so the
 * reported problem is the same one parsel reports.
 */
import type { FunctionNode, PseudoNode } from './ast.js';
import { CssFailure } from './css-error.js';
import { parseSeries } from './nth-series.js';
import { describeArguments } from './tokenizer.js';
import type { TranslatorOptions } from './translator.js';
import { xpathLiteral, type XPathExpr } from './xpath-expr.js';

type PseudoRule = (xpath: XPathExpr, pos: number) => XPathExpr;
type FunctionRule = (xpath: XPathExpr, fn: FunctionNode, options: TranslatorOptions) => XPathExpr;

function never(xpath: XPathExpr): XPathExpr {
  return xpath.addCondition('0');
}

/** The `:first-of-type` family needs an element name to count siblings by. */
function requireElement(xpath: XPathExpr, pos: number, written: string, example: string): void {
  if (xpath.element === '*') {
    throw new CssFailure(
      pos,
      `${written} needs an element name before it, as in '${example}' (it is not implemented for '*')`,
    );
  }
}

const GENERIC_PSEUDO: Record<string, PseudoRule> = {
  root: (x) => x.addCondition('not(parent::*)'),
  // Meant for `:scope > div` at the start of a selector (see the parser).
  scope: (x) => x.addCondition('1'),
  first_child: (x) => x.addCondition('count(preceding-sibling::*) = 0'),
  last_child: (x) => x.addCondition('count(following-sibling::*) = 0'),
  first_of_type: (x, pos) => {
    requireElement(x, pos, ':first-of-type', 'p:first-of-type');
    return x.addCondition(`count(preceding-sibling::${x.element}) = 0`);
  },
  last_of_type: (x, pos) => {
    requireElement(x, pos, ':last-of-type', 'p:last-of-type');
    return x.addCondition(`count(following-sibling::${x.element}) = 0`);
  },
  only_child: (x) => x.addCondition('count(parent::*/child::*) = 1'),
  only_of_type: (x, pos) => {
    requireElement(x, pos, ':only-of-type', 'p:only-of-type');
    return x.addCondition(`count(parent::*/child::${x.element}) = 1`);
  },
  empty: (x) => x.addCondition('not(*) and not(string-length())'),
  // States a static document never has.
  link: never,
  visited: never,
  hover: never,
  active: never,
  focus: never,
  target: never,
  enabled: never,
  disabled: never,
  checked: never,
};

const HTML_CHECKED =
  "(@selected and name(.) = 'option') or (@checked and (name(.) = 'input' or name(.) = 'command')and (@type = 'checkbox' or @type = 'radio'))";
const HTML_LINK = "@href and (name(.) = 'a' or name(.) = 'link' or name(.) = 'area')";
const HTML_DISABLED = [
  '',
  '        (',
  '            @disabled and',
  '            (',
  "                (name(.) = 'input' and @type != 'hidden') or",
  "                name(.) = 'button' or",
  "                name(.) = 'select' or",
  "                name(.) = 'textarea' or",
  "                name(.) = 'command' or",
  "                name(.) = 'fieldset' or",
  "                name(.) = 'optgroup' or",
  "                name(.) = 'option'",
  '            )',
  '        ) or (',
  '            (',
  "                (name(.) = 'input' and @type != 'hidden') or",
  "                name(.) = 'button' or",
  "                name(.) = 'select' or",
  "                name(.) = 'textarea'",
  '            )',
  '            and ancestor::fieldset[@disabled]',
  '        )',
  '        ',
].join('\n');
const HTML_ENABLED = [
  '',
  '        (',
  '            @href and (',
  "                name(.) = 'a' or",
  "                name(.) = 'link' or",
  "                name(.) = 'area'",
  '            )',
  '        ) or (',
  '            (',
  "                name(.) = 'command' or",
  "                name(.) = 'fieldset' or",
  "                name(.) = 'optgroup'",
  '            )',
  '            and not(@disabled)',
  '        ) or (',
  '            (',
  "                (name(.) = 'input' and @type != 'hidden') or",
  "                name(.) = 'button' or",
  "                name(.) = 'select' or",
  "                name(.) = 'textarea' or",
  "                name(.) = 'keygen'",
  '            )',
  '            and not (@disabled or ancestor::fieldset[@disabled])',
  '        ) or (',
  "            name(.) = 'option' and not(",
  '                @disabled or ancestor::optgroup[@disabled]',
  '            )',
  '        )',
  '        ',
].join('\n');

const HTML_PSEUDO: Record<string, PseudoRule> = {
  ...GENERIC_PSEUDO,
  checked: (x) => x.addCondition(HTML_CHECKED),
  link: (x) => x.addCondition(HTML_LINK),
  disabled: (x) => x.addCondition(HTML_DISABLED),
  enabled: (x) => x.addCondition(HTML_ENABLED),
};

/** The single name or string argument of :contains(), :lang() and ::attr(). */
function singleArgument(fn: FunctionNode, written: string): string {
  const arg = fn.args[0];
  if (fn.args.length !== 1 || (arg!.type !== 'IDENT' && arg!.type !== 'STRING')) {
    throw new CssFailure(fn.pos, `${written} takes one name or quoted string, got ${describeArguments(fn.args)}`);
  }
  return arg!.value;
}

function nth(last: boolean, ofType: boolean): FunctionRule {
  const written = `:nth-${last ? 'last-' : ''}${ofType ? 'of-type' : 'child'}()`;
  return (xpath, fn) => {
    if (ofType) requireElement(xpath, fn.pos, written, `p${written.slice(0, -1)}2)`);
    const series = parseSeries(fn.args);
    if (series === null) {
      throw new CssFailure(
        fn.pos,
        `${written} needs an an+b expression such as 'odd', 'even', '3', '2n+1' or '-n+3', got ${describeArguments(fn.args)}`,
      );
    }
    return nthCondition(xpath, series[0], series[1], last, ofType);
  };
}

/**
 * The element has an+b-1 (n ≥ 0) matching siblings before it (after it for
 * the -last- forms), written as cssselect simplifies it.
 */
function nthCondition(xpath: XPathExpr, a: bigint, b: bigint, last: boolean, ofType: boolean): XPathExpr {
  const bMinus1 = b - 1n;
  // a = 1 and b-1 ≤ 0: some n ≥ 0 fits any sibling count.
  if (a === 1n && bMinus1 <= 0n) return xpath;
  // a < 0 and b-1 < 0: an+b-1 is negative for every n.
  if (a < 0n && bMinus1 < 0n) return xpath.addCondition('0');
  const nodeTest = ofType ? xpath.element : '*';
  const count = `count(${last ? 'following' : 'preceding'}-sibling::${nodeTest})`;
  if (a === 0n) return xpath.addCondition(`${count} = ${bMinus1}`);
  const expressions: string[] = [];
  if (a > 0n) {
    if (bMinus1 > 0n) expressions.push(`${count} >= ${bMinus1}`);
  } else {
    expressions.push(`${count} <= ${bMinus1}`);
  }
  const absA = a < 0n ? -a : a;
  if (absA !== 1n) {
    // count - (b-1) ≡ 0 (mod a), with -(b-1) reduced modulo |a| into [0, |a|).
    const offset = (((-bMinus1) % absA) + absA) % absA;
    const left = offset === 0n ? count : `(${count} +${offset})`;
    expressions.push(`${left} mod ${a} = 0`);
  }
  const joined = expressions.length > 1 ? expressions.map((e) => `(${e})`).join(' and ') : expressions.join(' and ');
  return xpath.addCondition(joined);
}

const GENERIC_FUNCTIONS: Record<string, FunctionRule> = {
  nth_child: nth(false, false),
  nth_last_child: nth(true, false),
  nth_of_type: nth(false, true),
  nth_last_of_type: nth(true, true),
  // From an early CSS3 draft, kept by cssselect and used a lot in scraping.
  contains: (x, fn) => x.addCondition(`contains(., ${xpathLiteral(singleArgument(fn, ':contains()'))})`),
  lang: (x, fn) => x.addCondition(`lang(${xpathLiteral(singleArgument(fn, ':lang()'))})`),
};

const HTML_FUNCTIONS: Record<string, FunctionRule> = {
  ...GENERIC_FUNCTIONS,
  // HTML documents carry the language in `lang`, and XPath 1.0 has no lower-case().
  lang: (x, fn) => {
    const value = singleArgument(fn, ':lang()');
    if (value === '') throw new CssFailure(fn.pos, ':lang() needs a language code, got an empty string');
    return x.addCondition(
      "ancestor-or-self::*[@lang][1][starts-with(concat(translate(@lang, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', " +
        `'abcdefghijklmnopqrstuvwxyz'), '-'), ${xpathLiteral(`${value.toLowerCase()}-`)})]`,
    );
  },
};

function lookup<T>(table: Record<string, T>, name: string): T | undefined {
  const key = name.replaceAll('-', '_');
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

function pseudoRule(node: PseudoNode, options: TranslatorOptions): PseudoRule {
  const rule = lookup(options.html ? HTML_PSEUDO : GENERIC_PSEUDO, node.ident);
  if (rule === undefined) throw new CssFailure(node.pos, `unknown pseudo-class ':${node.ident}'`);
  return rule;
}

function functionRule(node: FunctionNode, options: TranslatorOptions): FunctionRule {
  const rule = lookup(options.html ? HTML_FUNCTIONS : GENERIC_FUNCTIONS, node.name);
  if (rule === undefined) throw new CssFailure(node.pos, `unknown pseudo-class ':${node.name}()'`);
  return rule;
}

/** Throws for an unknown pseudo-class; the translator asks before it translates the selector the pseudo-class qualifies. */
export function checkPseudo(node: PseudoNode | FunctionNode, options: TranslatorOptions): void {
  if (node.kind === 'pseudo') pseudoRule(node, options);
  else functionRule(node, options);
}

/** Applies `:name` to `xpath`, the translation of the selector it qualifies. */
export function translatePseudo(node: PseudoNode, xpath: XPathExpr, options: TranslatorOptions): XPathExpr {
  return pseudoRule(node, options)(xpath, node.pos);
}

/** Applies `:name(args)` to `xpath`, the translation of the selector it qualifies. */
export function translateFunction(node: FunctionNode, xpath: XPathExpr, options: TranslatorOptions): XPathExpr {
  return functionRule(node, options)(xpath, node, options);
}
