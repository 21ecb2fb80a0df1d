import { describe, expect, it } from '@jest/globals';
import { SeineError } from '../../src/errors/seine-error.js';
import { compileXPath, evaluateXPath, XPathError, type XPathContext } from '../../src/xpath/index.js';
import { parseXml, rootElement } from './helpers/tiny-xml.js';

const root = rootElement(parseXml('<r><p class="a">x</p></r>'));

function errorOf(expr: string, ctx?: XPathContext): XPathError {
  try {
    evaluateXPath(expr, root, ctx);
  } catch (err) {
    return err as XPathError;
  }
  throw new Error(`${expr} did not throw`);
}

describe('XPathError', () => {
  it('carries the query, the position and the reason, under a seine error code', () => {
    const err = errorOf('//p[');
    expect(err).toBeInstanceOf(XPathError);
    expect(err).toBeInstanceOf(SeineError);
    expect(err.name).toBe('XPathError');
    expect(err.code).toBe('SEINE_INVALID_XPATH');
    expect(err.query).toBe('//p[');
    expect(err.position).toBe(4);
    expect(err.reason).toBe('expected an expression, found the end of the expression');
    expect(err.message).toBe("Invalid XPath: '//p[' at position 4: expected an expression, found the end of the expression");
  });

  it.each([
    ['foo()', "Invalid XPath: 'foo()' at position 0: unknown function 'foo()'"],
    ['//p[bar(1)]', "Invalid XPath: '//p[bar(1)]' at position 4: unknown function 'bar()'"],
    ['re:foo("x")', "Invalid XPath: 're:foo(\"x\")' at position 0: unknown function 're:foo()'"],
    ['count()', "Invalid XPath: 'count()' at position 0: count() takes exactly 1 argument, got 0"],
    ['count(a, b)', "Invalid XPath: 'count(a, b)' at position 0: count() takes exactly 1 argument, got 2"],
    ['concat("a")', "Invalid XPath: 'concat(\"a\")' at position 0: concat() takes at least 2 arguments, got 1"],
    ['substring("a")', "Invalid XPath: 'substring(\"a\")' at position 0: substring() takes 2 to 3 arguments, got 1"],
    ['true(1)', "Invalid XPath: 'true(1)' at position 0: true() takes exactly 0 arguments, got 1"],
    ['re:replace("a", "b")', "Invalid XPath: 're:replace(\"a\", \"b\")' at position 0: re:replace() takes exactly 4 arguments, got 2"],
  ])('reports unknown functions and wrong arity: %s', (expr, message) => {
    expect(() => evaluateXPath(expr, root)).toThrow(message);
  });

  it.each([
    ['count(1)', "Invalid XPath: 'count(1)' at position 0: count() needs a node-set as argument 1, got a number"],
    ['sum("1")', "Invalid XPath: 'sum(\"1\")' at position 0: sum() needs a node-set as argument 1, got a string"],
    ['name(true())', "Invalid XPath: 'name(true())' at position 0: name() needs a node-set as argument 1, got a boolean"],
    ['count($v)', "Invalid XPath: 'count($v)' at position 0: count() needs a node-set as argument 1, got a variable (never a node-set)"],
    ['1 | //p', "Invalid XPath: '1 | //p' at position 2: '|' joins node-sets, but its left operand is a number"],
    ['//p | "x"', "Invalid XPath: '//p | \"x\"' at position 4: '|' joins node-sets, but its right operand is a string"],
    ['string(.)/a', "Invalid XPath: 'string(.)/a' at position 0: '/' can only follow a node-set, and this expression is a string"],
    ['(1)[1]', "Invalid XPath: '(1)[1]' at position 0: a predicate can only follow a node-set, and this expression is a number"],
    ['$v/a', "Invalid XPath: '$v/a' at position 0: '/' can only follow a node-set, and this expression is a variable (never a node-set)"],
  ])('reports values of the wrong type: %s', (expr, message) => {
    expect(() => evaluateXPath(expr, root, { variables: { v: 1 } })).toThrow(message);
  });

  it('reports an undefined variable where it is used', () => {
    expect(() => evaluateXPath('//p[@class = $cls]', root)).toThrow(
      "Invalid XPath: '//p[@class = $cls]' at position 13: undefined variable '$cls' (pass it in the query's variables)",
    );
  });

  it('reports a variable whose value is not a string, number or boolean', () => {
    const variables = { v: null } as unknown as Record<string, string>;
    expect(() => evaluateXPath('$v', root, { variables })).toThrow(
      "Invalid XPath: '$v' at position 0: variable '$v' must be a string, number or boolean, got null",
    );
  });

  it('reports an undefined namespace prefix in a name test or a function name', () => {
    expect(() => evaluateXPath('//dc:creator', root)).toThrow(
      "Invalid XPath: '//dc:creator' at position 2: undefined namespace prefix 'dc' (register it in the namespaces passed to the query)",
    );
    expect(() => evaluateXPath('//a/@x:y', root)).toThrow(
      "Invalid XPath: '//a/@x:y' at position 5: undefined namespace prefix 'x' (register it in the namespaces passed to the query)",
    );
    expect(() => evaluateXPath('fn:lower-case("A")', root)).toThrow(
      "Invalid XPath: 'fn:lower-case(\"A\")' at position 0: undefined namespace prefix 'fn' (register it in the namespaces passed to the query)",
    );
  });

  it('reports a prefix bound to an empty URI', () => {
    expect(() => evaluateXPath('//x:a', root, { namespaces: { x: '' } })).toThrow(
      "Invalid XPath: '//x:a' at position 2: namespace prefix 'x' is bound to an empty URI, which XPath 1.0 does not allow",
    );
  });

  it('reports has-class misuse as parsel does', () => {
    expect(() => evaluateXPath('//p[has-class()]', root)).toThrow(
      "Invalid XPath: '//p[has-class()]' at position 4: has-class must have at least 1 argument",
    );
    expect(() => evaluateXPath('//p[has-class(1)]', root)).toThrow(
      "Invalid XPath: '//p[has-class(1)]' at position 4: has-class arguments must be strings, got a number",
    );
    expect(() => evaluateXPath('//p[has-class("a", $n)]', root, { variables: { n: 2 } })).toThrow(
      "Invalid XPath: '//p[has-class(\"a\", $n)]' at position 4: has-class arguments must be strings, got a number",
    );
  });

  it('reports a bad regular expression or replacement in re:* functions', () => {
    expect(() => evaluateXPath('re:test(., "(")', root)).toThrow(
      "Invalid XPath: 're:test(., \"(\")' at position 0: re:test() got an invalid regular expression \"(\": Unterminated group",
    );
    expect(() => evaluateXPath('re:test(., $p)', root, { variables: { p: '\\q' } })).toThrow(
      "Invalid XPath: 're:test(., $p)' at position 0: re:test() got an invalid regular expression \"\\\\q\": bad escape \\q",
    );
    expect(() => evaluateXPath('re:replace(., "x", "g", "\\2")', root)).toThrow(
      "Invalid XPath: 're:replace(., \"x\", \"g\", \"\\2\")' at position 0: re:replace() got an invalid replacement: invalid group reference 2",
    );
  });

  it('compiles once: compileXPath reports syntax errors before any evaluation', () => {
    expect(() => compileXPath('a[')).toThrow(XPathError);
  });

  it('reports an expression nested too deeply to compile, instead of overflowing the stack', () => {
    const deep = '('.repeat(20000) + '1' + ')'.repeat(20000);
    let caught: unknown;
    try {
      compileXPath(deep);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(XPathError);
    const error = caught as XPathError;
    expect(error.query).toBe(deep);
    expect(error.position).toBe(256);
    expect(error.reason).toBe(
      'the expression nests more than 256 levels deep (parentheses, predicates, function calls and operators count); split it into several queries',
    );
    // The message quotes the start and the place, not 40,001 characters.
    expect(error.message).toBe(
      `Invalid XPath: '${'('.repeat(60)}…' (40001 characters; around the position: '…${'('.repeat(60)}…') at position 256: ${error.reason}`,
    );
  });

  it('rejects a context that is not a node with a TypeError naming the query', () => {
    expect(() => evaluateXPath('//p', null as never)).toThrow(new TypeError("XPath '//p' needs a DomNode as its context node, got null"));
  });

  it('rejects an expression that is not a string', () => {
    expect(() => compileXPath(42 as never)).toThrow(new TypeError('compileXPath needs the expression as a string, got number'));
  });

  it('reports a failure inside evaluation as an XPathError with the cause, not a bare TypeError', () => {
    const broken = rootElement(parseXml('<r><p/></r>'));
    (broken.children as unknown[])[0] = undefined;
    let caught: unknown;
    try {
      evaluateXPath('//p', broken);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(XPathError);
    expect((caught as XPathError).message).toMatch(/^Invalid XPath: '\/\/p' at position 0: evaluation failed: /);
    expect((caught as XPathError).cause).toBeInstanceOf(TypeError);
  });
});
