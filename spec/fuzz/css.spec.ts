/**
 * Properties of the CSS → XPath translator (src/css): whatever string it is
 * given, cssToXPath returns an XPath string or throws a CssError (never
 * another exception type); the translation is deterministic, and what it
 * returns is an expression seine's XPath engine compiles and evaluates.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { CssError, cssToXPath } from '../../src/css/index.js';
import { parseSelectorGroup } from '../../src/css/parser.js';
import { translateSelector } from '../../src/css/translator.js';
import { parseHtml } from '../../src/dom/parse-html.js';
import { XPathError, compileXPath } from '../../src/xpath/index.js';
import { anyString, configureFuzz, runs, seineOutcome, tokenSoup } from './fuzz-config.js';

configureFuzz({ numRuns: 300 });

// Pieces of selectors, so that generated strings get past the tokenizer into the parser and translator.
const CSS_PIECES = [
  'div', 'a', 'p', 'svg|rect', '*|*', '|x', '*', '.c', '.-x', '#id', '#1', '[x]', '[x=y]', '[x="1"]', "[x~='a b']", '[x|=en]', '[x^=a]',
  '[x$=a]', '[x*=a]', '[ns|x=1]', '[x=1 i]', '[', ']', '(', ')', ':', '::', ':first-child', ':last-of-type', ':only-child', ':empty',
  ':root', ':checked', ':link', ':disabled', ':enabled', ':hover', ':nth-child(', ':nth-last-child(', ':nth-of-type(', ':not(',
  ':has(', ':is(', ':where(', ':contains(', ':lang(', '2n+1', '-n+3', 'odd', 'even', 'n', '-', '+', '3', '0', ' of ', '::text',
  '::attr(href)', '::attr(', '::first-line', ' ', '>', '~', ',', '"', "'", '\\', '\\31 ', '\\00', '/*', '*/', '\n', 'é', '\u0000',
  '@', '%', '!', '=',
];
const cssLike = tokenSoup(CSS_PIECES, 10);
const anyCss = fc.oneof(anyString(40), cssLike, cssLike);

// Selectors cssselect 1.2 accepts, built from its grammar: compounds joined by combinators, an optional pseudo-element, in a group.
const compound = fc
  .tuple(
    fc.constantFrom('', '*', 'div', 'p', 'a', 'li', 'UL'),
    fc.array(fc.constantFrom('.c', '.x', '#a', '[href]', '[lang|=en]', '[class~="x"]', "[id^='a']", ':first-child', ':last-child',
      ':nth-child(2n+1)', ':nth-last-child(-n+2)', ':not(.c)', ':not(p)', ':empty', ':root', ':only-child'), { maxLength: 3 }),
  )
  .map(([element, qualifiers]) => (element === '' && qualifiers.length === 0 ? '*' : element + qualifiers.join('')));
const validCss = fc
  .array(
    fc.tuple(fc.array(fc.tuple(compound, fc.constantFrom(' ', ' > ', ' + ', ' ~ ')), { minLength: 1, maxLength: 3 }), fc.constantFrom('', '', '::text', '::attr(href)'))
      .map(([steps, pseudo]) => steps.map(([step, combinator], i) => (i === 0 ? step : combinator + step)).join('') + pseudo),
    { minLength: 1, maxLength: 3 },
  )
  .map((selectors) => selectors.join(', '));

/** cssToXPath without its cache: the parse and translation done afresh. */
function freshTranslation(css: string, dialect: 'html' | 'xml'): string {
  return parseSelectorGroup(css)
    .map((selector) => translateSelector(selector, { html: dialect === 'html' }, 'descendant-or-self::'))
    .join(' | ');
}

const DOC = parseHtml('<html><body><div id="a" class="c x"><p lang="en">t<a href="/h">l</a></p><ul><li>1</li><li>2</li></ul></div></body></html>');

describe('cssToXPath on any string', () => {
  it('returns a string or throws CssError, in both dialects', () => {
    fc.assert(
      fc.property(anyCss, fc.constantFrom('html' as const, 'xml' as const), (css, dialect) => {
        const outcome = seineOutcome(() => cssToXPath(css, dialect));
        if (outcome.ok) expect(typeof outcome.value).toBe('string');
        else expect(outcome.error).toBeInstanceOf(CssError);
      }),
      { numRuns: runs(1500) },
    );
  });

  it('is deterministic: the cached result, a fresh parse and translation, and the error all agree', () => {
    fc.assert(
      fc.property(anyCss, fc.constantFrom('html' as const, 'xml' as const), (css, dialect) => {
        const first = seineOutcome(() => cssToXPath(css, dialect));
        const again = seineOutcome(() => cssToXPath(css, dialect));
        expect(again).toEqual(first);
        if (first.ok) expect(freshTranslation(css, dialect)).toBe(first.value);
        else {
          const error = first.error as CssError;
          expect(() => freshTranslation(css, dialect)).toThrow();
          expect(error.query).toBe(css);
          // Positions count code points, and point into the query or just past it.
          if (error.position !== null) expect(error.position).toBeLessThanOrEqual([...css].length);
          // The message is one line, whatever control characters the query holds.
          expect(error.message).not.toMatch(/[\n\r\u2028\u2029]/);
        }
      }),
      { numRuns: runs(800) },
    );
  });

  it('translates to an expression the XPath engine compiles and evaluates without error', () => {
    fc.assert(
      fc.property(fc.oneof(cssLike, validCss), (css) => {
        const outcome = seineOutcome(() => cssToXPath(css));
        if (!outcome.ok) return;
        const namespaces = { svg: 'http://www.w3.org/2000/svg', ns: 'urn:ns' };
        try {
          expect(Array.isArray(compileXPath(outcome.value).evaluate(DOC, { namespaces }))).toBe(true);
        } catch (error) {
          // A `prefix|name` selector needs its prefix registered, as in parsel; nothing else may fail.
          if (!(error instanceof XPathError && error.reason.startsWith('undefined namespace prefix'))) throw error;
        }
      }),
      { numRuns: runs(800) },
    );
  });

  it('translates every selector of the grammar cssselect accepts', () => {
    fc.assert(
      fc.property(validCss, fc.constantFrom('html' as const, 'xml' as const), (css, dialect) => {
        expect(typeof cssToXPath(css, dialect)).toBe('string');
      }),
      { numRuns: runs(500) },
    );
  });
});
