/**
 * Hostile XPath ("Hostile input" issue): expressions nested or chained
 * thousands deep are refused with an XPathError naming the rule — never a
 * RangeError from the parser, the compiler or the compiled code — or, for
 * the chains people do generate (`or`, `and`, `|`, long paths), evaluated.
 */
import { describe, expect, it } from '@jest/globals';
import { compileXPath, XPathError } from '../../src/xpath/index.js';
import { MAX_XPATH_NESTING } from '../../src/xpath/parser.js';
import { parseHtml } from '../../src/dom/parse-html.js';

const doc = parseHtml('<div class="a"><div><p>x</p></div></div>');
const evaluate = (query: string): unknown => compileXPath(query).evaluate(doc);

function xpathError(query: string): XPathError {
  try {
    evaluate(query);
  } catch (error) {
    expect(error).toBeInstanceOf(XPathError);
    return error as XPathError;
  }
  throw new Error(`no error for ${query.slice(0, 40)}`);
}

const TOO_DEEP = /^the expression nests more than 256 levels deep/;

describe('deeply nested XPath', () => {
  it.each([
    ['(×100,000 unclosed', '('.repeat(100_000)],
    ['(…) ×100,000', '('.repeat(100_000) + '1' + ')'.repeat(100_000)],
    ['not( ×10,000', 'not('.repeat(10_000) + '1' + ')'.repeat(10_000)],
    ['not( ×100,000', 'not('.repeat(100_000) + '1' + ')'.repeat(100_000)],
    ['predicates in predicates', 'a['.repeat(10_000) + 'a' + ']'.repeat(10_000)],
    ['- ×100,000', '-'.repeat(100_000) + '1'],
    ['1+1+… ×100,000', Array(100_000).fill('1').join(' + ')],
    ['1=1=… ×10,000', Array(10_000).fill('1').join(' = ')],
  ])('%s is an XPathError, with the query shortened in the message', (_name, query) => {
    const error = xpathError(query);
    expect(error.reason).toMatch(TOO_DEEP);
    expect(error.query).toBe(query);
    expect(error.message.length).toBeLessThan(500);
  });

  it('accepts nesting up to the limit, and evaluates it', () => {
    const n = MAX_XPATH_NESTING - 1;
    expect(evaluate('not('.repeat(n) + '1' + ')'.repeat(n))).toBe(n % 2 === 0);
    expect(evaluate('('.repeat(n) + '2' + ')'.repeat(n))).toBe(2);
    expect(evaluate('-'.repeat(200) + '3')).toBe(3);
    const css = (k: number): string => {
      let c = '@class';
      for (let i = 1; i < k; i++) c = `(${c}) and (@class)`;
      return `//*[${c}]`;
    };
    expect((evaluate(css(200)) as unknown[]).length).toBe(1);
  });
});

describe('long chains and paths are evaluated', () => {
  // 20,000: far beyond what recursion could take (Node's stack holds ~10,000 frames).
  it('or / and chains of 20,000', () => {
    expect(evaluate(Array(20_000).fill('1=2').join(' or ') + ' or 1=1')).toBe(true);
    expect(evaluate(Array(20_000).fill('1=1').join(' and '))).toBe(true);
    expect((evaluate(`//*[${Array(20_000).fill('@nope').join(' or ')} or @class]`) as unknown[]).length).toBe(1);
    expect((evaluate(`//*[${Array(20_000).fill('@class').join(' and ')}]`) as unknown[]).length).toBe(1);
  });

  it('a union of 20,000 paths, in document order without duplicates', () => {
    const nodes = evaluate(Array(10_000).fill('//p | //div').join(' | ')) as Array<{ name: string }>;
    expect(nodes.map((n) => n.name)).toEqual(['div', 'div', 'p']);
    expect(evaluate(`boolean(${Array(1000).fill('//nope').join(' | ')} | //p)`)).toBe(true);
    expect(evaluate(`name(${Array(1000).fill('//p').join(' | ')} | //div)`)).toBe('div');
    expect(xpathError("1 | //p | //a").reason).toBe("'|' joins node-sets, but its left operand is a number");
    expect(xpathError("//p | //a | 'x' | //b").reason).toBe("'|' joins node-sets, but its right operand is a string");
    expect(xpathError("//p | //a | 'x' | //b").position).toBe(10);
  });

  it('a path of 20,000 steps', () => {
    expect(evaluate(Array(20_000).fill('a').join('/'))).toEqual([]);
    expect(evaluate('boolean(' + Array(10_000).fill('div').join('/') + ')')).toBe(false);
    expect(evaluate('boolean(//' + Array(100).fill('*').join('/') + ')')).toBe(false);
    expect(evaluate('boolean(/' + ['html', 'body', 'div', 'div', 'p', 'text()'].join('/') + ')')).toBe(true);
  });

  it('a function call with 20,000 arguments', () => {
    expect((evaluate('concat(' + Array(20_000).fill("'a'").join(',') + ')') as string).length).toBe(20_000);
  });
});
