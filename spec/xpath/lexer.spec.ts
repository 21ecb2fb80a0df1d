import { describe, expect, it } from '@jest/globals';
import { tokenize, type Token } from '../../src/xpath/lexer.js';

/** Tokens as `type:value` strings, without the end marker. */
function tokens(expr: string): string[] {
  return tokenize(expr)
    .filter((t: Token) => t.type !== 'eof')
    .map((t: Token) => `${t.type}:${t.value}`);
}

describe('tokenize', () => {
  it('reads names, axes, node types, operators and punctuation', () => {
    expect(tokens('child::a/@b[1]')).toEqual(['axis:child', ':::::', 'name:a', 'operator:/', '@:@', 'name:b', '[:[', 'number:1', ']:]']);
    expect(tokens('//text()|..')).toEqual(['operator://', 'nodeType:text', '(:(', '):)', 'operator:|', '..:..']);
    expect(tokens('a!=b<=c>=d<e>f')).toEqual([
      'name:a',
      'operator:!=',
      'name:b',
      'operator:<=',
      'name:c',
      'operator:>=',
      'name:d',
      'operator:<',
      'name:e',
      'operator:>',
      'name:f',
    ]);
  });

  it('reads * as a name test where an operand is expected and as multiplication after an operand', () => {
    expect(tokens('* * *')).toEqual(['name:*', 'operator:*', 'name:*']);
    expect(tokens('@*')).toEqual(['@:@', 'name:*']);
    expect(tokens('(*)[*]')).toEqual(['(:(', 'name:*', '):)', '[:[', 'name:*', ']:]']);
    expect(tokens('2*3')).toEqual(['number:2', 'operator:*', 'number:3']);
  });

  it('reads and/or/div/mod as operators only after an operand, as names elsewhere', () => {
    expect(tokens('div div div')).toEqual(['name:div', 'operator:div', 'name:div']);
    expect(tokens('mod mod mod')).toEqual(['name:mod', 'operator:mod', 'name:mod']);
    expect(tokens('and or or')).toEqual(['name:and', 'operator:or', 'name:or']);
  });

  it('reads a name followed by ( as a function call unless it is a node type', () => {
    expect(tokens('count(x)')).toEqual(['function:count', '(:(', 'name:x', '):)']);
    expect(tokens('node()')).toEqual(['nodeType:node', '(:(', '):)']);
    expect(tokens('processing-instruction("p")')).toEqual(['nodeType:processing-instruction', '(:(', 'literal:p', '):)']);
    expect(tokens('re:test(.)')).toEqual(['function:re:test', '(:(', '.:.', '):)']);
  });

  it('allows whitespace between a name and its ( or ::', () => {
    expect(tokens('not (x)')).toEqual(['function:not', '(:(', 'name:x', '):)']);
    expect(tokens('text ( )')).toEqual(['nodeType:text', '(:(', '):)']);
    expect(tokens('child :: x')).toEqual(['axis:child', ':::::', 'name:x']);
  });

  it('keeps text, comment and node as element names when no ( follows', () => {
    expect(tokens('text/comment')).toEqual(['name:text', 'operator:/', 'name:comment']);
  });

  it('reads QNames and prefix:* name tests with their parts', () => {
    const [qname, , wildcard] = tokenize('a:b | c:*');
    expect(qname).toMatchObject({ type: 'name', value: 'a:b', prefix: 'a', local: 'b', pos: 0 });
    expect(wildcard).toMatchObject({ type: 'name', value: 'c:*', prefix: 'c', local: '*', pos: 6 });
  });

  it('reads names with non-ASCII letters, digits, dots and hyphens', () => {
    expect(tokens('//été.x-1/_a')).toEqual(['operator://', 'name:été.x-1', 'operator:/', 'name:_a']);
  });

  it('reads both quote styles without escapes', () => {
    expect(tokens(`"it's" | 'say "hi"'`)).toEqual(["literal:it's", 'operator:|', 'literal:say "hi"']);
  });

  it('reads variables, with or without a prefix', () => {
    expect(tokenize('$x + $p:y').filter((t) => t.type === 'variable').map((t) => [t.value, t.prefix, t.local])).toEqual([
      ['x', '', 'x'],
      ['p:y', 'p', 'y'],
    ]);
  });

  it('reads numbers as libxml2 does, exponents included', () => {
    const nums = (expr: string) => tokenize(expr).filter((t) => t.type === 'number').map((t) => t.num);
    expect(nums('1 1.5 .5 5. 1e3 1E-2 2.5e+1')).toEqual([1, 1.5, 0.5, 5, 1000, 0.01, 25]);
  });

  it('records the 0-based offset of every token', () => {
    expect(tokenize('  //a [ 1 ]').map((t) => t.pos)).toEqual([2, 4, 6, 8, 10, 11]);
  });

  it('reports an unexpected character with its position', () => {
    expect(() => tokenize('a # b')).toThrow("Invalid XPath: 'a # b' at position 2: unexpected character '#'");
    expect(() => tokenize('a\u00a0b')).toThrow("Invalid XPath: 'a\u00a0b' at position 1: unexpected character U+00A0");
  });

  it('reports an unterminated literal where it starts', () => {
    expect(() => tokenize("a['x]")).toThrow("Invalid XPath: 'a['x]' at position 2: unterminated string literal (no closing ')");
  });

  it('reports a name where an operator must come', () => {
    expect(() => tokenize('//b foo')).toThrow(
      "Invalid XPath: '//b foo' at position 4: expected an operator or the end of the expression, found 'foo'",
    );
  });

  it('reports an unknown axis', () => {
    expect(() => tokenize('sibling::a')).toThrow("Invalid XPath: 'sibling::a' at position 0: unknown axis 'sibling'");
  });

  it("reports '!' without '='", () => {
    expect(() => tokenize('a ! b')).toThrow("Invalid XPath: 'a ! b' at position 2: '!' must be followed by '=' (the operator is '!=')");
  });

  it('reports a prefix without a name', () => {
    expect(() => tokenize('a: b')).toThrow("Invalid XPath: 'a: b' at position 2: expected a name or '*' after 'a:'");
    expect(() => tokenize('$ x')).toThrow("Invalid XPath: '$ x' at position 0: '$' must be followed by a variable name");
  });
});
