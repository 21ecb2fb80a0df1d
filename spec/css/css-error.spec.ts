import { describe, expect, it } from '@jest/globals';
import { CssError, cssToXPath } from '../../src/css/index.js';
import { SeineError } from '../../src/errors/seine-error.js';

function failure(css: string, dialect: 'html' | 'xml' = 'html'): CssError {
  try {
    cssToXPath(css, dialect);
  } catch (err) {
    if (err instanceof CssError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(css)} to be rejected`);
}

describe('CssError', () => {
  it('is a SeineError with code SEINE_INVALID_CSS, the query, the position and the reason', () => {
    const err = failure('a[');
    expect(err).toBeInstanceOf(SeineError);
    expect(err.name).toBe('CssError');
    expect(err.code).toBe('SEINE_INVALID_CSS');
    expect(err.query).toBe('a[');
    expect(err.position).toBe(2);
    expect(err.reason).toBe("expected an attribute name or '*', got end of input");
    expect(err.message).toBe("Invalid CSS selector 'a[' at position 2: expected an attribute name or '*', got end of input");
  });

  it.each([
    ['div..x', "Invalid CSS selector 'div..x' at position 4: expected a class name after '.', got '.'"],
    ['a >', "Invalid CSS selector 'a >' at position 3: expected a selector, got end of input"],
    ['a,', "Invalid CSS selector 'a,' at position 2: expected a selector, got end of input"],
    ['', "Invalid CSS selector '' at position 0: expected a selector, got end of input"],
    ['a)', "Invalid CSS selector 'a)' at position 1: expected a selector, got ')'"],
    ['ns|', "Invalid CSS selector 'ns|' at position 3: expected an element name or '*' after '|', got end of input"],
    ['[*]', "Invalid CSS selector '[*]' at position 2: expected '|' after '*' in an attribute selector, got ']'"],
    [
      '[x^y]',
      "Invalid CSS selector '[x^y]' at position 2: expected an attribute operator (=, ~=, |=, ^=, $=, *=, !=) or ']', got '^'",
    ],
    ['[x=1]', "Invalid CSS selector '[x=1]' at position 3: expected a name or a quoted string as the attribute value, got number 1"],
    ['[x="y" z]', "Invalid CSS selector '[x=\"y\" z]' at position 7: expected ']' to close the attribute selector, got name 'z'"],
    ["a[title='x]", "Invalid CSS selector 'a[title='x]' at position 8: unclosed string"],
    ['"a\\', "Invalid CSS selector '\"a\\' at position 0: invalid string: it ends with a lone backslash"],
    ['a:', "Invalid CSS selector 'a:' at position 2: expected a pseudo-class name after ':', got end of input"],
    ['p::', "Invalid CSS selector 'p::' at position 3: expected a pseudo-element name after '::', got end of input"],
    [
      'li:nth-child(#x)',
      "Invalid CSS selector 'li:nth-child(#x)' at position 13: expected an argument (a name, string, number, '+' or '-') or ')', got '#x'",
    ],
  ])('reports a syntax error in %j with the offending position', (css, message) => {
    expect(failure(css).message).toBe(message);
  });

  it.each([
    [
      'a:not(b, c)',
      "Invalid CSS selector 'a:not(b, c)' at position 7: expected ')' to close :not(), got ','; :not() takes one compound selector, so chain them: ':not(.a):not(.b)'",
    ],
    [
      'a:not(:not(b))',
      "Invalid CSS selector 'a:not(:not(b))' at position 6: :not() cannot be nested inside :not(), :is(), :matches() or :where()",
    ],
    [
      ':is(a,b)',
      "Invalid CSS selector ':is(a,b)' at position 7: expected a selector, got ')' (parsel needs a space after each ',' in :is(): write ':is(a, b)')",
    ],
    [':is(a', "Invalid CSS selector ':is(a' at position 5: unexpected end of input (a parenthesis is not closed)"],
    [
      'a:not(::text)',
      "Invalid CSS selector 'a:not(::text)' at position 12: pseudo-element ::text is not allowed inside :not()",
    ],
    [
      'p::text b',
      "Invalid CSS selector 'p::text b' at position 8: pseudo-element ::text must be at the end of the selector, got name 'b' after it",
    ],
    [
      'a :scope',
      "Invalid CSS selector 'a :scope' at position 2: :scope is only allowed at the start of a selector (as in ':scope > div')",
    ],
    [
      'a:has(b c)',
      "Invalid CSS selector 'a:has(b c)' at position 7: :has() accepts one combinator and then only names, strings, numbers, '.' and '*', got whitespace",
    ],
    ['a:has(> 1)', "Invalid CSS selector 'a:has(> 1)' at position 8: in the :has() argument '1': expected a selector, got number 1"],
    [
      'a:has(- b)',
      "Invalid CSS selector 'a:has(- b)' at position 6: '-' is not a combinator in :has(); use '>', '+', '~' or a space",
    ],
  ])('explains the parsel-specific rule %j breaks', (css, message) => {
    expect(failure(css).message).toBe(message);
  });

  it.each([
    ['a:hover2', "Invalid CSS selector 'a:hover2' at position 1: unknown pseudo-class ':hover2'"],
    ['a:foo(1)', "Invalid CSS selector 'a:foo(1)' at position 1: unknown pseudo-class ':foo()'"],
    [
      'p::before',
      "Invalid CSS selector 'p::before' at position 1: unknown pseudo-element '::before'; seine supports ::text and ::attr(name)",
    ],
    [
      'a:after',
      "Invalid CSS selector 'a:after' at position 1: unknown pseudo-element '::after'; seine supports ::text and ::attr(name)",
    ],
    [
      'p::text()',
      "Invalid CSS selector 'p::text()' at position 1: unknown pseudo-element '::text()'; seine supports ::text and ::attr(name)",
    ],
    [
      'a::attr()',
      "Invalid CSS selector 'a::attr()' at position 1: ::attr() takes one attribute name (a name or a quoted string), got nothing",
    ],
    [
      'a::attr(href title)',
      "Invalid CSS selector 'a::attr(href title)' at position 1: ::attr() takes one attribute name (a name or a quoted string), got name 'href', name 'title'",
    ],
    [
      'p:contains(foo bar)',
      "Invalid CSS selector 'p:contains(foo bar)' at position 1: :contains() takes one name or quoted string, got name 'foo', name 'bar'",
    ],
    [
      'li:nth-child(x)',
      "Invalid CSS selector 'li:nth-child(x)' at position 2: :nth-child() needs an an+b expression such as 'odd', 'even', '3', '2n+1' or '-n+3', got name 'x'",
    ],
    [
      '.x:first-of-type',
      "Invalid CSS selector '.x:first-of-type' at position 2: :first-of-type needs an element name before it, as in 'p:first-of-type' (it is not implemented for '*')",
    ],
    [
      '*:nth-last-of-type(2)',
      "Invalid CSS selector '*:nth-last-of-type(2)' at position 1: :nth-last-of-type() needs an element name before it, as in 'p:nth-last-of-type(2)' (it is not implemented for '*')",
    ],
    ['p:lang("")', "Invalid CSS selector 'p:lang(\"\")' at position 1: :lang() needs a language code, got an empty string"],
    ['[*|=x]', "Invalid CSS selector '[*|=x]': '[*|=...]' names no attribute; write '[name|=value]'"],
  ])('names what is unsupported in %j', (css, message) => {
    expect(failure(css).message).toBe(message);
  });

  it('accepts an empty :lang() in XML, as parsel does', () => {
    expect(cssToXPath('p:lang("")', 'xml')).toBe("descendant-or-self::p[lang('')]");
  });

  it('counts the position in code points, as cssselect does', () => {
    expect(failure('😀😀 >').position).toBe(4);
    expect(failure('😀😀 >').message).toBe("Invalid CSS selector '😀😀 >' at position 4: expected a selector, got end of input");
  });

  it('writes control characters as escapes so the message stays on one line', () => {
    const err = failure('a\nb)');
    expect(err.query).toBe('a\nb)');
    expect(err.message).toBe("Invalid CSS selector 'a\\nb)' at position 3: expected a selector, got ')'");
    expect(failure('a\u000b').message).toBe("Invalid CSS selector 'a\\u000b' at position 1: expected a selector, got '\\u000b'");
  });

  it('reports the first syntax error the parser reaches, not a later one', () => {
    expect(failure('a) "unclosed').message).toBe("Invalid CSS selector 'a) \"unclosed' at position 1: expected a selector, got ')'");
  });

  it('reports a syntax error anywhere in the group before an unsupported pseudo-class earlier on', () => {
    expect(failure('a:hover2, b[').reason).toBe("expected an attribute name or '*', got end of input");
  });

  it('does not cache failures: the same bad query throws every time', () => {
    expect(() => cssToXPath('a[')).toThrow(CssError);
    expect(() => cssToXPath('a[')).toThrow(CssError);
  });
});
