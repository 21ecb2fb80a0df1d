import { describe, expect, it } from '@jest/globals';
import { DomNode } from '../../src/dom/node.js';
import {
  compileXPath,
  DEFAULT_NAMESPACES,
  evaluateXPath,
  NAMESPACE,
  numberToString,
  pythonFloatRepr,
  XPathError,
  type CompiledXPath,
  type XPathValue,
} from '../../src/xpath/index.js';
import { describeNode, parseXml, rootElement } from './helpers/tiny-xml.js';

const root = rootElement(parseXml('<r><p id="a">1</p><p id="b">2</p></r>'));

describe('compileXPath', () => {
  it('returns the same compiled expression for the same text', () => {
    const a = compileXPath('//p[@id = $id]');
    expect(compileXPath('//p[@id = $id]')).toBe(a);
    expect(a.source).toBe('//p[@id = $id]');
  });

  it('keeps at most 2,000 expressions, dropping the oldest', () => {
    const first = compileXPath('count(//p) + 0');
    for (let i = 0; i < 2000; i++) compileXPath(`count(//p) + ${i + 1}`);
    expect(compileXPath('count(//p) + 0')).not.toBe(first);
  });

  it('evaluates one compiled expression on any number of documents and context nodes', () => {
    const c: CompiledXPath = compileXPath('count(.//p)');
    const other = rootElement(parseXml('<r><p/></r>'));
    expect(c.evaluate(root)).toBe(2);
    expect(c.evaluate(other)).toBe(1);
    expect(c.evaluate(root.children[0]!)).toBe(0);
  });
});

describe('evaluateXPath results', () => {
  it('returns node-sets as DomNode arrays, numbers, strings and booleans as JavaScript values', () => {
    const nodes: XPathValue = evaluateXPath('//p', root);
    expect(Array.isArray(nodes) && nodes.map(describeNode)).toEqual(['p#a', 'p#b']);
    expect(evaluateXPath('count(//p)', root)).toBe(2);
    expect(evaluateXPath('string(//p)', root)).toBe('1');
    expect(evaluateXPath('//p = 2', root)).toBe(true);
  });

  it('binds variables of every type', () => {
    const variables = { s: 'b', n: 2, t: true };
    expect((evaluateXPath('//p[@id = $s]', root, { variables }) as DomNode[]).map(describeNode)).toEqual(['p#b']);
    expect((evaluateXPath('//p[$n]', root, { variables }) as DomNode[]).map(describeNode)).toEqual(['p#b']);
    expect((evaluateXPath('//p[$t]', root, { variables }) as DomNode[]).map(describeNode)).toEqual(['p#a', 'p#b']);
    expect(evaluateXPath('$n * 2 + string-length($s)', root, { variables })).toBe(5);
  });

  it('treats a variable holding a number in a predicate as a position, decided when evaluated', () => {
    const c = compileXPath('//p[$v]');
    expect((c.evaluate(root, { variables: { v: 1 } }) as DomNode[]).map(describeNode)).toEqual(['p#a']);
    expect((c.evaluate(root, { variables: { v: 'yes' } }) as DomNode[]).map(describeNode)).toEqual(['p#a', 'p#b']);
    expect((c.evaluate(root, { variables: { v: '' } }) as DomNode[]).map(describeNode)).toEqual([]);
  });

  it('does not read inherited properties as variables', () => {
    expect(() => evaluateXPath('$toString', root)).toThrow(XPathError);
  });
});

describe('exports for the Selector layer', () => {
  it('names the default namespaces parsel registers, plus xml', () => {
    expect(DEFAULT_NAMESPACES).toEqual({
      re: 'http://exslt.org/regular-expressions',
      set: 'http://exslt.org/sets',
      xml: 'http://www.w3.org/XML/1998/namespace',
    });
  });

  it('formats numbers as lxml (XPath strings) and as Python (parsel get())', () => {
    expect(numberToString(2)).toBe('2');
    expect(pythonFloatRepr(2)).toBe('2.0');
  });

  it('marks namespace nodes with kind NAMESPACE (13): prefix in name, URI in data', () => {
    const nodes = evaluateXPath('/*/namespace::*', rootElement(parseXml('<r xmlns:x="urn:x"/>'))) as DomNode[];
    expect(nodes.map((n) => [n.kind, n.name, n.data])).toEqual([
      [NAMESPACE, 'xml', 'http://www.w3.org/XML/1998/namespace'],
      [NAMESPACE, 'x', 'urn:x'],
    ]);
  });
});
