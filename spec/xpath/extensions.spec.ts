/**
 * parsel's has-class() and the EXSLT sets module. Expected values were
 * recorded from parsel 1.7 / lxml 4.9.2 (scripts/xpath-oracle.py --html) on
 * the same markup.
 */
import { describe, expect, it } from '@jest/globals';
import { onDocument, type Described } from './helpers/run.js';

const HTML =
  '<html><body><p class="a  b\nc\td" id="x">a</p><p class="a\fb" id="y">f</p><div class="">e</div>' +
  '<span>s</span>text<span>s</span></body></html>';

function cases(rows: [string, Described][]): [string, Described][] {
  return rows;
}

describe('has-class()', () => {
  const query = onDocument(HTML, { variables: { cls: 'b' } });

  it.each(cases([
    ["//p[has-class(\"a\")]", {nodes: ["p#x","p#y"]}],
    ["//p[has-class(\"a\", \"c\")]", {nodes: ["p#x"]}],
    ["//p[has-class(\"b\")]", {nodes: ["p#x","p#y"]}],
    ["//*[has-class(\"\")]", {nodes: []}],
    ["//*[has-class(\" a\")]", {nodes: []}],
    ["//*[has-class(\"a b\")]", {nodes: ["p#x","p#y"]}],
    ["//*[has-class(\"b c\")]", {nodes: ["p#x"]}],
    ["//*[has-class(\"a\", \"zz\")]", {nodes: []}],
    ["//*[has-class(\"f\")]", {nodes: []}],
    ["//*[has-class($cls)]", {nodes: ["p#x","p#y"]}],
    ["has-class(\"a\")", {boolean: false}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));

  it('splits on HTML whitespace, form feed included, but not on no-break space', () => {
    const nbsp = onDocument('<r><p class="a\u00a0b">x</p><p class="a\fb">y</p></r>');
    expect(nbsp('//p[has-class("a")]/text()')).toEqual({ nodes: ['"y"'] });
  });

  it('is false for nodes that are not elements, where lxml raises', () => {
    expect(query('count(//text()[has-class("a")] | //@class[has-class("a")])')).toEqual({ number: 0 });
  });

  it('reads only the class attribute in no namespace', () => {
    const ns = onDocument('<r xmlns:x="urn:x"><p x:class="a">1</p><p class="a">2</p></r>');
    expect(ns('//p[has-class("a")]/text()')).toEqual({ nodes: ['"2"'] });
  });
});

describe('EXSLT sets (prefix set, as parsel registers it)', () => {
  const query = onDocument(HTML);

  it.each(cases([
    ["set:distinct(//p)", {nodes: ["p#x","p#y"]}],
    ["set:difference(//p, //p[1])", {nodes: ["p#y"]}],
    ["set:intersection(//*, //p[2]|//span)", {nodes: ["p#y","span","span"]}],
    ["set:has-same-node(//p, //p[2])", {boolean: true}],
    ["set:has-same-node(//p, //span)", {boolean: false}],
    ["set:leading(//p, //p[2])", {nodes: ["p#x"]}],
    ["set:leading(//*, //span)", {nodes: ["html","body","p#x","p#y","div"]}],
    ["set:leading(//p, //span)", {nodes: []}],
    ["set:leading(//p, //zz)", {nodes: ["p#x","p#y"]}],
    ["set:trailing(//*, //p[2])", {nodes: ["div","span","span"]}],
    ["set:trailing(//p, //span)", {nodes: []}],
    ["set:distinct(//text())", {nodes: ["\"a\"","\"f\"","\"e\"","\"s\"","\"text\""]}],
    ["set:distinct(//@*)", {nodes: ["@class=a  b\nc\td","@id=x","@class=a\fb","@id=y","@class="]}],
    ["set:distinct(//span/text())", {nodes: ["\"s\""]}],
    ["set:difference(//span, //zz)", {nodes: ["span","span"]}],
    ["set:difference(//zz, //span)", {nodes: []}],
    ["set:intersection(//p, //span)", {nodes: []}],
    ["set:trailing(//*, //span)", {nodes: ["span"]}],
    ["set:trailing(//p, //zz)", {nodes: ["p#x","p#y"]}],
    ["count(set:leading(//node(), //div))", {number: 6}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));

  it('works under any prefix bound to http://exslt.org/sets', () => {
    const custom = onDocument(HTML, { namespaces: { s: 'http://exslt.org/sets' } });
    expect(custom('count(s:distinct(//span))')).toEqual({ number: 1 });
  });

  it('reports arguments that are not node-sets', () => {
    expect(query('set:distinct(1)')).toEqual({
      error: "Invalid XPath: 'set:distinct(1)' at position 0: set:distinct() needs a node-set as argument 1, got a number",
    });
    expect(query('set:leading(//p)')).toEqual({
      error: "Invalid XPath: 'set:leading(//p)' at position 0: set:leading() takes exactly 2 arguments, got 1",
    });
  });
});
