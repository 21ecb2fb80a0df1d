/**
 * Parsed selector → XPath, rule by rule as cssselect 1.2's GenericTranslator
 * (XML) and HTMLTranslator (HTML) write it, plus parsel's `::text` and
 * `::attr(name)`. Structural rules live here; pseudo-classes and functions in
 * pseudo-classes.ts.
 */
import type { AttribNode, ElementNode, ParsedSelector, PseudoElement, Tree } from './ast.js';
import { CssFailure } from './css-error.js';
import { checkPseudo, translateFunction, translatePseudo } from './pseudo-classes.js';
import { describeArguments } from './tokenizer.js';
import { XPathExpr, isSafeName, xpathLiteral } from './xpath-expr.js';

export interface TranslatorOptions {
  /**
   * HTML: element and attribute names in the selector are lower-cased (the
   * HTML parser lower-cases them in the document) and the HTML meanings of
   * :checked, :link, :enabled, :disabled and :lang() apply.
   */
  readonly html: boolean;
}

// Python's `$` also matches before one final '\n', hence the `\n?`.
const NON_WHITESPACE_RE = /^[^ \t\r\n\f]+\n?$/;

export function translateSelector(selector: ParsedSelector, options: TranslatorOptions, prefix: string): string {
  let xpath = translate(selector.tree, options);
  if (selector.pseudoElement !== null) xpath = applyPseudoElement(xpath, selector.pseudoElement);
  return prefix + xpath.toString();
}

/**
 * A compound selector is a chain of nodes, each wrapping the selector it
 * qualifies (`a.b:c` is pseudo(class(element))), and a selector with
 * combinators chains its compounds the same way. cssselect translates
 * recursively; here the chain is walked with a loop, so that `div div …`
 * 10,000 times or `.a.a.a…` cannot overflow the stack: first from the
 * outside in, making the checks cssselect makes before it descends (unknown
 * pseudo-classes, `[*|=x]`), then from the element outwards, applying each
 * node. Only the arguments of :not(), :is() and :has() recurse, and the
 * parser bounds their nesting.
 */
export function translate(tree: Tree, options: TranslatorOptions): XPathExpr {
  const chain: Exclude<Tree, ElementNode>[] = [];
  let node: Tree = tree;
  while (node.kind !== 'element') {
    if (node.kind === 'pseudo' || node.kind === 'function') checkPseudo(node, options);
    else if (node.kind === 'attrib' && node.attrib === null) throw new CssFailure(null, "'[*|=...]' names no attribute; write '[name|=value]'");
    chain.push(node);
    node = node.selector;
  }
  let xpath = translateElement(node.namespace, node.element, options);
  for (let i = chain.length - 1; i >= 0; i--) xpath = applyNode(chain[i]!, xpath, options);
  return xpath;
}

/** One node of the chain, applied to `xpath`, the translation of the selector the node wraps. */
function applyNode(tree: Exclude<Tree, ElementNode>, xpath: XPathExpr, options: TranslatorOptions): XPathExpr {
  switch (tree.kind) {
    case 'hash':
      return attribEquals(xpath, '@id', tree.id);
    case 'class':
      // `.foo` is defined as `[class~=foo]`.
      return attribIncludes(xpath, '@class', tree.className);
    case 'attrib':
      return translateAttrib(tree, xpath, options);
    case 'pseudo':
      return translatePseudo(tree, xpath, options);
    case 'function':
      return translateFunction(tree, xpath, options);
    case 'negation': {
      const sub = translate(tree.subselector, options);
      sub.addNameTest();
      return xpath.addCondition(sub.condition === '' ? '0' : `not(${sub.condition})`);
    }
    case 'matching': {
      for (const item of tree.selectorList) {
        const e = translate(item, options);
        e.addNameTest();
        if (e.condition !== '') xpath.addCondition(e.condition, 'or');
      }
      return xpath;
    }
    case 'relation':
      return translateRelation(tree.combinator, tree.combinatorPos, xpath, translate(tree.subselector.tree, options));
    case 'combined':
      return translateCombinator(tree.combinator, xpath, translate(tree.subselector, options));
  }
}

function translateElement(namespace: string | null, name: string | null, options: TranslatorOptions): XPathExpr {
  let element = '*';
  let safe = true;
  if (name !== null) {
    safe = isSafeName(name);
    element = options.html ? name.toLowerCase() : name;
  }
  if (namespace !== null) {
    // Namespace prefixes are case-sensitive, in HTML too.
    element = `${namespace}:${element}`;
    safe = safe && isSafeName(namespace);
  }
  const xpath = new XPathExpr(element);
  if (!safe) xpath.addNameTest();
  return xpath;
}

function translateCombinator(combinator: ' ' | '>' | '+' | '~', left: XPathExpr, right: XPathExpr): XPathExpr {
  switch (combinator) {
    case ' ':
      return left.join('/descendant-or-self::*/', right);
    case '>':
      return left.join('/', right);
    case '+': {
      const xpath = left.join('/following-sibling::', right);
      xpath.addNameTest();
      return xpath.addCondition('position() = 1');
    }
    case '~':
      return left.join('/following-sibling::', right);
  }
}

/** `:has()`: the left side is selected, the right side becomes a predicate. */
function translateRelation(combinator: string, pos: number, left: XPathExpr, right: XPathExpr): XPathExpr {
  switch (combinator) {
    case ' ':
      return left.join('[descendant::', right, ']', true);
    case '>':
      return left.join('[./', right, ']');
    case '+':
      return left.addCondition(`following-sibling::*[(name() = '${right.element}') and (position() = 1)]`);
    case '~':
      return left.join('[following-sibling::', right, ']');
    default:
      throw new CssFailure(pos, `'${combinator}' is not a combinator in :has(); use '>', '+', '~' or a space`);
  }
}

function translateAttrib(node: AttribNode, xpath: XPathExpr, options: TranslatorOptions): XPathExpr {
  if (node.attrib === null) {
    throw new CssFailure(null, "'[*|=...]' names no attribute; write '[name|=value]'");
  }
  let name = options.html ? node.attrib.toLowerCase() : node.attrib;
  let safe = isSafeName(name);
  if (node.namespace !== null) {
    name = `${node.namespace}:${name}`;
    safe = safe && isSafeName(node.namespace);
  }
  const attrib = safe ? `@${name}` : `attribute::*[name() = ${xpathLiteral(name)}]`;
  const value = node.value;
  if (value === null) return xpath.addCondition(attrib);
  switch (node.operator) {
    case '=':
      return attribEquals(xpath, attrib, value);
    case '~=':
      return attribIncludes(xpath, attrib, value);
    case '|=':
      return xpath.addCondition(
        `${attrib} and (${attrib} = ${xpathLiteral(value)} or starts-with(${attrib}, ${xpathLiteral(`${value}-`)}))`,
      );
    case '^=':
      return xpath.addCondition(value === '' ? '0' : `${attrib} and starts-with(${attrib}, ${xpathLiteral(value)})`);
    case '$=': {
      if (value === '') return xpath.addCondition('0');
      // XPath 1.0 has no ends-with(); lengths are in code points, as in XPath.
      const offset = [...value].length - 1;
      return xpath.addCondition(
        `${attrib} and substring(${attrib}, string-length(${attrib})-${offset}) = ${xpathLiteral(value)}`,
      );
    }
    case '*=':
      return xpath.addCondition(value === '' ? '0' : `${attrib} and contains(${attrib}, ${xpathLiteral(value)})`);
    case '!=':
      return xpath.addCondition(
        value === ''
          ? `${attrib} != ${xpathLiteral(value)}`
          : `not(${attrib}) or ${attrib} != ${xpathLiteral(value)}`,
      );
    case 'exists':
      return xpath.addCondition(attrib);
  }
}

function attribEquals(xpath: XPathExpr, attrib: string, value: string): XPathExpr {
  return xpath.addCondition(`${attrib} = ${xpathLiteral(value)}`);
}

function attribIncludes(xpath: XPathExpr, attrib: string, value: string): XPathExpr {
  if (value === '' || !NON_WHITESPACE_RE.test(value)) return xpath.addCondition('0');
  return xpath.addCondition(
    `${attrib} and contains(concat(' ', normalize-space(${attrib}), ' '), ${xpathLiteral(` ${value} `)})`,
  );
}

const SUPPORTED_PSEUDO_ELEMENTS = 'seine supports ::text and ::attr(name)';

function applyPseudoElement(xpath: XPathExpr, pe: PseudoElement): XPathExpr {
  const key = pe.name.replaceAll('-', '_');
  if (pe.args === null) {
    if (key !== 'text') throw new CssFailure(pe.pos, `unknown pseudo-element '::${pe.name}'; ${SUPPORTED_PSEUDO_ELEMENTS}`);
    xpath.textnode = true;
    return xpath;
  }
  if (key !== 'attr') throw new CssFailure(pe.pos, `unknown pseudo-element '::${pe.name}()'; ${SUPPORTED_PSEUDO_ELEMENTS}`);
  const arg = pe.args[0];
  if (pe.args.length !== 1 || (arg!.type !== 'IDENT' && arg!.type !== 'STRING')) {
    throw new CssFailure(
      pe.pos,
      `::attr() takes one attribute name (a name or a quoted string), got ${describeArguments(pe.args)}`,
    );
  }
  xpath.attribute = arg!.value;
  return xpath;
}
