/**
 * Properties of seine's XPath engine (src/xpath): any string compiles or
 * throws XPathError (never another exception type), and so does evaluating
 * what compiled; parsing and evaluation are deterministic; and a node-set
 * agrees with what XPath's own functions say about it (count, boolean,
 * string of the first node in document order).
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { DomNode } from '../../src/dom/node.js';
import { stringValue } from '../../src/dom/node.js';
import { parseHtml } from '../../src/dom/parse-html.js';
import { parseXPath } from '../../src/xpath/parser.js';
import { XPathError, compileXPath, type XPathValue } from '../../src/xpath/index.js';
import { anyString, configureFuzz, runs, seineOutcome, tokenSoup } from './fuzz-config.js';

configureFuzz({ numRuns: 300 });

const XPATH_PIECES = [
  '/', '//', '.', '..', '*', '@*', '@id', '@class', 'div', 'p', 'a', 'li', 'body', 'text()', 'node()', 'comment()',
  'processing-instruction()', 'child::', 'descendant::', 'ancestor::', 'following-sibling::', 'preceding::', 'self::', 'attribute::',
  'namespace::', 'ancestor-or-self::', '[', ']', '(', ')', '[1]', '[last()]', '[position()>1]', ',', '|', ' and ', ' or ', '=', '!=', '<',
  '<=', '>', '>=', '+', '-', ' div ', ' mod ', '*', '1', '2.5', '.5', '-1', "'x'", '"y"', "'", '"', 'count(', 'string(', 'concat(', 'contains(',
  'starts-with(', 'substring(', 'substring-before(', 'normalize-space(', 'translate(', 'string-length(', 'number(', 'sum(', 'floor(',
  'round(', 'not(', 'true()', 'false()', 'lang(', 'name(', 'local-name(', 'id(', 're:test(', 're:match(', 're:replace(', 'set:distinct(',
  'has-class(', '$v', '$missing', 'x:y', ' ', '\n', 'é', '::', '@',
];
const xpathLike = tokenSoup(XPATH_PIECES, 10);
const anyXPath = fc.oneof(anyString(40), xpathLike, xpathLike);

// Location paths that are valid XPath: each step an axis, a node test and maybe a predicate.
const step = fc
  .tuple(
    fc.constantFrom('', 'child::', 'descendant::', 'descendant-or-self::', 'parent::', 'ancestor::', 'following-sibling::', 'preceding-sibling::',
      'following::', 'preceding::', 'self::'),
    fc.constantFrom('*', 'node()', 'text()', 'div', 'p', 'a', 'li', 'span'),
    fc.constantFrom('', '', '[1]', '[2]', '[last()]', '[position() < 3]', '[@id]', '[not(@class)]', "[contains(., 'a')]", '[text()]', '[.//a]'),
  )
  .map(([axis, test, predicate]) => axis + test + predicate);
const locationPath = fc
  .tuple(fc.constantFrom('/', '//', '', './/'), fc.array(step, { minLength: 1, maxLength: 4 }), fc.constantFrom('', '', '/@*', '/@id', '/..'))
  .map(([start, steps, tail]) => start + steps.join('/') + tail);

const DOC_TEXT =
  '<html><head><title>T</title></head><body><div id="a" class="c x">one <span>two</span><!-- c --><p lang="en">t<a href="/h">l</a></p>' +
  '<ul><li>1</li><li id="b">2</li><li>3 a</li></ul></div><div><p>x<a>y</a>z</p><span class="x">s</span></div></body></html>';
const DOC = parseHtml(DOC_TEXT);
const VARIABLES = { v: 'a' };

const htmlDoc = fc.oneof(fc.constant(DOC), anyString(80).map(parseHtml));

function evaluate(expr: string, node: DomNode): XPathValue {
  return compileXPath(expr).evaluate(node, { variables: VARIABLES });
}

function sameValue(a: XPathValue, b: XPathValue): void {
  if (Array.isArray(a) && Array.isArray(b)) {
    expect(b.length).toBe(a.length);
    a.forEach((node, i) => expect(b[i]).toBe(node));
  } else {
    expect(b).toEqual(a);
  }
}

describe('XPath on any string', () => {
  it('compiles or throws XPathError', () => {
    fc.assert(
      fc.property(anyXPath, (expr) => {
        const outcome = seineOutcome(() => compileXPath(expr));
        if (!outcome.ok) {
          expect(outcome.error).toBeInstanceOf(XPathError);
          const error = outcome.error as XPathError;
          expect(error.query).toBe(expr);
          expect(error.position).toBeGreaterThanOrEqual(0);
          expect(error.position).toBeLessThanOrEqual(expr.length);
        }
      }),
      { numRuns: runs(1500) },
    );
  });

  it('evaluates what compiled, on any document, or throws XPathError', () => {
    fc.assert(
      fc.property(fc.oneof(anyXPath, locationPath), htmlDoc, (expr, doc) => {
        const outcome = seineOutcome(() => evaluate(expr, doc));
        if (!outcome.ok) expect(outcome.error).toBeInstanceOf(XPathError);
      }),
      { numRuns: runs(1000) },
    );
  });

  it('parses deterministically: the same AST from a fresh parse, the same error', () => {
    fc.assert(
      fc.property(anyXPath, (expr) => {
        const first = seineOutcome(() => parseXPath(expr));
        const again = seineOutcome(() => parseXPath(expr));
        if (first.ok) expect(again).toEqual(first);
        else expect(again.ok ? null : again.error.message).toBe(first.error.message);
      }),
      { numRuns: runs(800) },
    );
  });

  it('evaluates deterministically: the same value, the same nodes in the same order', () => {
    fc.assert(
      fc.property(fc.oneof(xpathLike, locationPath), (expr) => {
        const first = seineOutcome(() => evaluate(expr, DOC));
        const again = seineOutcome(() => evaluate(expr, DOC));
        if (first.ok && again.ok) sameValue(first.value, again.value);
        else expect(again.ok ? null : again.error.message).toBe(first.ok ? null : first.error.message);
      }),
      { numRuns: runs(800) },
    );
  });
});

describe('a node-set agrees with the functions that read it', () => {
  it('count(E) is its size, string(E) the string-value of its first node', () => {
    fc.assert(
      fc.property(locationPath, (path) => {
        const nodes = evaluate(path, DOC);
        expect(Array.isArray(nodes)).toBe(true);
        const set = nodes as DomNode[];
        expect(evaluate(`count(${path})`, DOC)).toBe(set.length);
        expect(evaluate(`string(${path})`, DOC)).toBe(set.length === 0 ? '' : stringValue(set[0]!));
        // In document order, without duplicates.
        expect(new Set(set).size).toBe(set.length);
        const union = evaluate(`${path} | ${path}`, DOC) as DomNode[];
        sameValue(set, union);
      }),
      { numRuns: runs(600) },
    );
  });

  // A bug this property found, now fixed (src/xpath/paths.ts, existsFrom): the existence search skipped a node when a node it tried before it
  // contains it, assuming document order; reverse axes (ancestor, preceding, preceding-sibling) give nearest
  // first, so an ancestor is skipped after its own descendant. Minimal counterexamples:
  //   on '<div><p></p></div><b></b>', boolean(//b/preceding::*/descendant::p) is false, count(…) is 1 (on this
  //   file's DOC: //ul/preceding::*/descendant::a);
  //   on '<html><head><title>t</title></head><body><p>x</p></body></html>', boolean(//p/ancestor::*/descendant::title)
  //   is false and //p[ancestor::*/descendant::title] selects nothing.
  it('boolean(E), not(E) and [E] as a predicate agree with count(E) > 0', () => {
    fc.assert(
      fc.property(locationPath, (path) => {
        const size = (evaluate(path, DOC) as DomNode[]).length;
        expect(evaluate(`boolean(${path})`, DOC)).toBe(size > 0);
        expect(evaluate(`not(${path})`, DOC)).toBe(size === 0);
        expect((evaluate(`/self::node()[${path}]`, DOC) as DomNode[]).length).toBe(size > 0 ? 1 : 0);
      }),
      { numRuns: runs(600), examples: [['//ul/preceding::*/descendant::a'], ['//p/ancestor::*/descendant::title']] },
    );
  });
});
