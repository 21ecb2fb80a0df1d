import { describe, expect, it } from '@jest/globals';
import type { ExprAst, NodeTestAst, StepAst } from '../../src/xpath/ast.js';
import { parseXPath } from '../../src/xpath/parser.js';

function test(t: NodeTestAst): string {
  switch (t.kind) {
    case 'name':
      return t.prefix === '' ? t.local : `${t.prefix}:${t.local}`;
    case 'pi':
      return t.target === null ? 'processing-instruction()' : `processing-instruction('${t.target}')`;
    default:
      return `${t.kind}()`;
  }
}

function step(s: StepAst): string {
  return `${s.axis}::${test(s.test)}${s.preds.map((p) => `[${show(p)}]`).join('')}`;
}

/** The AST as a compact S-expression, full steps spelled out. */
function show(e: ExprAst): string {
  switch (e.kind) {
    case 'number':
      return String(e.value);
    case 'literal':
      return JSON.stringify(e.value);
    case 'variable':
      return `$${e.name}`;
    case 'call':
      return `${e.name}(${e.args.map(show).join(', ')})`;
    case 'binary':
      return `(${e.op} ${show(e.left)} ${show(e.right)})`;
    case 'negate':
      return `(- ${show(e.operand)})`;
    case 'path':
      return (e.absolute ? '/' : '') + e.steps.map(step).join('/');
    case 'filter':
      return `(filter ${show(e.primary)}${e.preds.map((p) => `[${show(p)}]`).join('')}${e.steps.map((s) => '/' + step(s)).join('')})`;
  }
}

const parse = (expr: string) => show(parseXPath(expr).ast);

describe('parseXPath', () => {
  it('binds operators by XPath 1.0 precedence, each level left-associative', () => {
    expect(parse('1 or 2 and 3')).toBe('(or 1 (and 2 3))');
    expect(parse('1 = 2 < 3')).toBe('(= 1 (< 2 3))');
    expect(parse('1 < 2 + 3')).toBe('(< 1 (+ 2 3))');
    expect(parse('1 + 2 * 3')).toBe('(+ 1 (* 2 3))');
    expect(parse('1 - 2 - 3')).toBe('(- (- 1 2) 3)');
    expect(parse('8 div 4 mod 3')).toBe('(mod (div 8 4) 3)');
    expect(parse('1 = 2 != 3')).toBe('(!= (= 1 2) 3)');
    expect(parse('- 1 * 2')).toBe('(* (- 1) 2)');
    expect(parse('-a | b')).toBe('(- (| child::a child::b))');
    expect(parse('a | b = c')).toBe('(= (| child::a child::b) child::c)');
  });

  it('expands the abbreviations into full steps', () => {
    expect(parse('//a')).toBe('/descendant-or-self::node()/child::a');
    expect(parse('a//b')).toBe('child::a/descendant-or-self::node()/child::b');
    expect(parse('.')).toBe('self::node()');
    expect(parse('..')).toBe('parent::node()');
    expect(parse('@href')).toBe('attribute::href');
    expect(parse('@*')).toBe('attribute::*');
    expect(parse('./a/../@b')).toBe('self::node()/child::a/parent::node()/attribute::b');
    expect(parse('/')).toBe('/');
  });

  it('parses every node test', () => {
    expect(parse('node()|text()|comment()|processing-instruction()|processing-instruction("x")|*|p:*|p:a')).toBe(
      "(| (| (| (| (| (| (| child::node() child::text()) child::comment()) child::processing-instruction()) child::processing-instruction('x')) child::*) child::p:*) child::p:a)",
    );
  });

  it('parses predicates on steps and on filter expressions, and paths after filters', () => {
    expect(parse('a[1][@b]')).toBe('child::a[1][attribute::b]');
    expect(parse('(a|b)[2]/c')).toBe('(filter (| child::a child::b)[2]/child::c)');
    expect(parse('$x//y')).toBe('(filter $x/descendant-or-self::node()/child::y)');
    expect(parse('f()[1]')).toBe('(filter f()[1])');
    expect(parse('(a)')).toBe('child::a');
  });

  it('parses function calls with any number of arguments', () => {
    expect(parse('concat("a", 1, $v, b)')).toBe('concat("a", 1, $v, child::b)');
    expect(parse('true()')).toBe('true()');
    expect(parse('re:test(., "x")')).toBe('re:test(self::node(), "x")');
  });

  it('accepts whitespace anywhere between tokens', () => {
    expect(parse(' not ( a [ 1 ] / b ) ')).toBe('not(child::a[1]/child::b)');
    expect(parse('child :: a / attribute :: b')).toBe('child::a/attribute::b');
  });

  it('lists the namespace prefixes it uses, each once', () => {
    expect(parseXPath('//a:x/@b:y | a:f(c:*, $d:v)').prefixes).toEqual(['a', 'b', 'c', 'd']);
    expect(parseXPath('//x').prefixes).toEqual([]);
  });

  it.each([
    ['//b[', 4, 'expected an expression, found the end of the expression'],
    ['//b]', 3, "unexpected ']' after a complete expression"],
    ['//b[1', 5, "expected ']' to close the predicate at position 3, found the end of the expression"],
    ['(1', 2, "expected ')' to close the '(' at position 0, found the end of the expression"],
    ['count(1 2)', 8, "expected ',' or ')' in the arguments of count() at position 0, found '2'"],
    ['/a/', 3, 'expected a node test (a name, \'*\', or a node type such as text()), found the end of the expression'],
    ['//', 2, 'expected a node test (a name, \'*\', or a node type such as text()), found the end of the expression'],
    ['@', 1, "expected a node test (a name, '*', or a node type such as text()) after '@', found the end of the expression"],
    ['child::', 7, "expected a node test (a name, '*', or a node type such as text()) after 'child::', found the end of the expression"],
    ['text(1)', 5, "expected ')' in text(), found '1'"],
    ['processing-instruction(1)', 23, "expected a string literal or ')' in processing-instruction(), found '1'"],
    ['.[1]', 1, "unexpected '[' after a complete expression"],
    ['', 0, 'expected an expression, found the end of the expression'],
    ['1 +', 3, 'expected an expression, found the end of the expression'],
    ['a | | b', 4, "expected an expression, found '|'"],
  ])('rejects %p at position %p: %s', (expr, position, reason) => {
    expect(() => parseXPath(expr)).toThrow(`Invalid XPath: '${expr}' at position ${position}: ${reason}`);
  });
});
