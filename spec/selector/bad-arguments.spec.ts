/**
 * Wrong argument types ("Hostile input" issue): every selector method that
 * takes a query, a pattern, a default, namespaces or variables refuses a
 * value of the wrong type with a BadArgumentError (SEINE_BAD_ARGUMENT)
 * naming the method, the argument and what it got — before, `css(42)` threw
 * a TypeError from inside CssError's constructor and `css(null)` searched
 * for <null> elements and returned [].
 */
import { describe, expect, it } from '@jest/globals';
import { BadArgumentError, SeineError, Selector } from '../../src/index.js';

const sel = new Selector({ text: '<p class="a">x 1</p>' });
const list = sel.css('p');
const empty = sel.css('nothing');

function badArgument(call: () => unknown): BadArgumentError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(BadArgumentError);
    expect(error).toBeInstanceOf(SeineError);
    expect((error as BadArgumentError).code).toBe('SEINE_BAD_ARGUMENT');
    return error as BadArgumentError;
  }
  throw new Error('no error');
}

const any = (v: unknown): never => v as never;

describe('BadArgumentError', () => {
  it.each([
    ['css(42)', () => sel.css(any(42)), 'Selector.css() needs the query as a string, got a number (42)'],
    ['css(null)', () => sel.css(any(null)), 'Selector.css() needs the query as a string, got null'],
    ['css(undefined)', () => sel.css(any(undefined)), 'Selector.css() needs the query as a string, got undefined'],
    ['list.css({})', () => list.css(any({})), 'SelectorList.css() needs the query as a string, got an object'],
    ['empty list.css(null)', () => empty.css(any(null)), 'SelectorList.css() needs the query as a string, got null'],
    ['xpath(42)', () => sel.xpath(any(42)), 'Selector.xpath() needs the query as a string, got a number (42)'],
    ['xpath([])', () => empty.xpath(any(['//p'])), 'SelectorList.xpath() needs the query as a string, got an array'],
    [
      'xpath variables 42',
      () => sel.xpath('$a', any(42)),
      "Selector.xpath() needs the variables as an object ({ tag: 'life' } for $tag), got a number (42)",
    ],
    [
      'xpath variable {}',
      () => sel.xpath('$a', any({ a: {} })),
      "Selector.xpath() needs variable '$a' as a string, number or boolean, got an object",
    ],
    [
      'xpath variable unused null',
      () => list.xpath('1', any({ b: null })),
      "SelectorList.xpath() needs variable '$b' as a string, number or boolean, got null",
    ],
    [
      'xpath namespaces 42',
      () => sel.xpath('1', {}, any({ namespaces: 42 })),
      "Selector.xpath() needs namespaces as an object of prefix → URI strings ({ atom: 'http://www.w3.org/2005/Atom' }), got a number (42)",
    ],
    [
      'xpath namespace URI 42',
      () => sel.xpath('//x:a', {}, any({ namespaces: { x: 42 } })),
      "Selector.xpath() needs the URI of namespace prefix 'x' as a string, got a number (42)",
    ],
    ['xpath options "x"', () => sel.xpath('1', {}, any('x')), `Selector.xpath() needs the options as an object ({ namespaces: { a: 'urn:a' } }), got a string ("x")`],
    ['re(42)', () => sel.re(any(42)), "Selector.re() needs the regular expression as a RegExp or a string (/\\d+/ or '\\\\d+'), got a number (42)"],
    ['re(null)', () => list.re(any(null)), "SelectorList.re() needs the regular expression as a RegExp or a string (/\\d+/ or '\\\\d+'), got null"],
    ['re(/x/, "yes")', () => sel.re(/x/, any('yes')), 'Selector.re() needs replaceEntities as a boolean, got a string ("yes")'],
    ['reFirst({})', () => empty.reFirst(any({})), "SelectorList.reFirst() needs the regular expression as a RegExp or a string (/\\d+/ or '\\\\d+'), got an object"],
    ['reFirst(/x/, 42)', () => sel.reFirst(/x/, any(42)), 'Selector.reFirst() needs the default as a string (or null), got a number (42)'],
    ['get(42)', () => empty.get(any(42)), 'SelectorList.get() needs the default as a string (or null), got a number (42)'],
    ['Selector get(42)', () => sel.get(any(42)), 'Selector.get() needs the default as a string (or null), got a number (42)'],
    ['extractFirst(42)', () => empty.extractFirst(any(42)), 'SelectorList.get() needs the default as a string (or null), got a number (42)'],
    ['new Selector(42)', () => new Selector(any(42)), "new Selector() needs its options as an object such as { text: '<html>…' }, got a number (42)"],
    ['new Selector(null)', () => new Selector(any(null)), "new Selector() needs its options as an object such as { text: '<html>…' }, got null"],
    ['new Selector({ text: 42 })', () => new Selector({ text: any(42) }), 'new Selector() needs text as a string (the markup to parse), got a number (42)'],
    ['new Selector({ text: Buffer })', () => new Selector({ text: any(Buffer.from('<p/>')) }), 'new Selector() needs text as a string (the markup to parse), got a Buffer'],
    [
      'new Selector({ root: {} })',
      () => new Selector({ root: any({}) }),
      'new Selector() needs root as a parsed node (or a string, number or boolean an XPath returned), got an object',
    ],
    [
      'new Selector({ namespaces: "x" })',
      () => new Selector({ text: '<a/>', namespaces: any('x') }),
      `new Selector() needs namespaces as an object of prefix → URI strings ({ atom: 'http://www.w3.org/2005/Atom' }), got a string ("x")`,
    ],
    ['registerNamespace(1, "u")', () => sel.registerNamespace(any(1), 'u'), 'Selector.registerNamespace() needs the prefix as a string, got a number (1)'],
    ['registerNamespace("x", null)', () => sel.registerNamespace('x', any(null)), 'Selector.registerNamespace() needs the URI as a string, got null'],
  ])('%s', (_name, call, message) => {
    expect(badArgument(call).message).toBe(message);
  });

  it('still accepts what parsel accepts', () => {
    expect(sel.css('p::text').get()).toBe('x 1');
    expect(sel.xpath('//p[@class = $c]/text()', { c: 'a' }).get()).toBe('x 1');
    expect(sel.xpath('//p/text()', undefined, { namespaces: { a: 'urn:a' } }).get()).toBe('x 1');
    expect(sel.re('\\d')).toEqual(['1']);
    expect(list.reFirst(/(\d)/, 'none')).toBe('1');
    expect(empty.get('n/a')).toBe('n/a');
    expect(empty.get(null as never)).toBeNull();
    expect(new Selector({ root: 'text' }).get()).toBe('text');
  });
});

describe('re() pattern strings as Python reads them', () => {
  const list = () => new Selector({ text: '<p>Foo bar FOO</p>' }).css('p::text');

  it("takes Python's leading inline flags: re('(?i)foo') is parsel's ['Foo', 'FOO']", () => {
    expect(list().re('(?i)foo')).toEqual(['Foo', 'FOO']);
    expect(list().reFirst('(?i)bar')).toBe('bar');
  });

  it("takes (?x) as Python's verbose flag: re('(?x)F oo  # comment') is parsel's ['Foo']", () => {
    expect(list().re('(?x)F oo  # comment')).toEqual(['Foo']);
  });

  it('an invalid pattern, or a flag Python refuses for text, is a BadArgumentError naming the pattern', () => {
    expect(() => list().re('(')).toThrow(BadArgumentError);
    expect(() => list().re('(')).toThrow('re() needs the pattern as a regular expression, got "(": Invalid regular expression: Unterminated group');
    expect(() => list().re('(?L)foo')).toThrow('re() needs the pattern as a regular expression, got "(?L)foo": the (?L) flag only applies to bytes patterns');
  });
});
