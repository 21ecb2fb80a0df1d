/**
 * Location paths, predicates, unions and filter expressions. Expected values
 * were recorded from lxml 4.9.2 (scripts/xpath-oracle.py), except `/`:
 * lxml's Python layer drops the document node seine returns.
 */
import { describe, expect, it } from '@jest/globals';
import type { DomNode } from '../../src/dom/node.js';
import { evaluateXPath } from '../../src/xpath/index.js';
import { Selector } from '../../src/selector/index.js';
import { onDocument, run, type Described } from './helpers/run.js';
import { parseXml, rootElement } from './helpers/tiny-xml.js';

const DOC =
  '<r><div id="d1"><p id="p1">x</p><p id="p2">x<q>y</q></p></div><div id="d2"><div id="d3"><p id="p3">z</p><q/>' +
  '<p id="p4">w<p id="p5">v</p></p></div><p id="p6"><q>y</q></p></div>tail</r>';
const query = onDocument(DOC);

function cases(rows: [string, Described][]): [string, Described][] {
  return rows;
}

describe("'//x' keeps its per-parent meaning for positions, unlike '(//x)'", () => {
  it.each(cases([
    ["//p", {nodes: ["p#p1","p#p2","p#p3","p#p4","p#p5","p#p6"]}],
    ["//p[1]", {nodes: ["p#p1","p#p3","p#p5","p#p6"]}],
    ["(//p)[1]", {nodes: ["p#p1"]}],
    ["//p[2]", {nodes: ["p#p2","p#p4"]}],
    ["(//p)[2]", {nodes: ["p#p2"]}],
    ["//p[last()]", {nodes: ["p#p2","p#p4","p#p5","p#p6"]}],
    ["(//p)[last()]", {nodes: ["p#p6"]}],
    ["//div//p[1]", {nodes: ["p#p1","p#p3","p#p5","p#p6"]}],
    ["//div/descendant::p[1]", {nodes: ["p#p1","p#p3"]}],
    ["count(//p[1])", {number: 4}],
    ["count((//p)[1])", {number: 1}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('descendant paths return document order without duplicates, across nesting depths', () => {
  it.each(cases([
    ["//div//p", {nodes: ["p#p1","p#p2","p#p3","p#p4","p#p5","p#p6"]}],
    ["//div/p", {nodes: ["p#p1","p#p2","p#p3","p#p4","p#p6"]}],
    ["//div//text()", {nodes: ["\"x\"","\"x\"","\"y\"","\"z\"","\"w\"","\"v\"","\"y\""]}],
    ["//div//@id", {nodes: ["@id=d1","@id=p1","@id=p2","@id=d2","@id=d3","@id=p3","@id=p4","@id=p5","@id=p6"]}],
    ["//@id", {nodes: ["@id=d1","@id=p1","@id=p2","@id=d2","@id=d3","@id=p3","@id=p4","@id=p5","@id=p6"]}],
    ["/*//p/@id", {nodes: ["@id=p1","@id=p2","@id=p3","@id=p4","@id=p5","@id=p6"]}],
    [".//p", {nodes: ["p#p1","p#p2","p#p3","p#p4","p#p5","p#p6"]}],
    [".//p/text()", {nodes: ["\"x\"","\"x\"","\"z\"","\"w\"","\"v\""]}],
    ["//div[@id=\"d2\"]//p", {nodes: ["p#p3","p#p4","p#p5","p#p6"]}],
    ["(//div)[2]//p[last()]", {nodes: ["p#p4","p#p5","p#p6"]}],
    ["count(//div//node())", {number: 17}],
    ["count(//div[1]//p)", {number: 5}],
    ["//text()[.=\"y\"]/ancestor::*", {nodes: ["r","div#d1","p#p2","q","div#d2","p#p6","q"]}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('absolute and relative paths start at the root and at the context node', () => {
  it.each(cases([
    ["/r/div", {nodes: ["div#d1","div#d2"]}],
    ["/r/*/p", {nodes: ["p#p1","p#p2","p#p6"]}],
    ["/*/*", {nodes: ["div#d1","div#d2"]}],
    ["./div", {nodes: ["div#d1","div#d2"]}],
    ["div", {nodes: ["div#d1","div#d2"]}],
    ["div/p", {nodes: ["p#p1","p#p2","p#p6"]}],
    ["div[2]/p", {nodes: ["p#p6"]}],
    ["r", {nodes: []}],
    ["/r", {nodes: ["r"]}],
    ["/", {nodes: ["/"]}],
    ["//r/../r", {nodes: ["r"]}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('steps from many context nodes are sorted and de-duplicated', () => {
  it.each(cases([
    ["//p/..", {nodes: ["div#d1","div#d2","div#d3","p#p4"]}],
    ["//p/../..", {nodes: ["r","div#d2","div#d3"]}],
    ["//p/ancestor::div", {nodes: ["div#d1","div#d2","div#d3"]}],
    ["//p/ancestor::div[1]", {nodes: ["div#d1","div#d2","div#d3"]}],
    ["//p/parent::div/p[2]", {nodes: ["p#p2","p#p4"]}],
    ["//div/p[1]/q", {nodes: ["q"]}],
    ["//div[2]/div/p", {nodes: ["p#p3","p#p4"]}],
    ["//div/div", {nodes: ["div#d3"]}],
    ["//div/div/p/..", {nodes: ["div#d3"]}],
    ["/r/div[1]/p[1]/following::p", {nodes: ["p#p2","p#p3","p#p4","p#p5","p#p6"]}],
    ["/r/div[1]/p[1]/following::p[1]", {nodes: ["p#p2"]}],
    ["//text()/parent::p", {nodes: ["p#p1","p#p2","p#p3","p#p4","p#p5"]}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('predicates that test paths, strings and counts', () => {
  it.each(cases([
    ["//div[p]", {nodes: ["div#d1","div#d2","div#d3"]}],
    ["//div[not(p)]", {nodes: []}],
    ["//div[p/q]", {nodes: ["div#d1","div#d2"]}],
    ["//div[.//q]", {nodes: ["div#d1","div#d2","div#d3"]}],
    ["//div[@id][p]", {nodes: ["div#d1","div#d2","div#d3"]}],
    ["//p[text()=\"x\"]", {nodes: ["p#p1","p#p2"]}],
    ["//p[.=\"xy\"]", {nodes: ["p#p2"]}],
    ["//p[. = \"x\"]", {nodes: ["p#p1"]}],
    ["//p[q = \"y\"]", {nodes: ["p#p2","p#p6"]}],
    ["//p[string(q) = \"y\"]", {nodes: ["p#p2","p#p6"]}],
    ["//div[count(p) > 1]", {nodes: ["div#d1","div#d3"]}],
    ["//div[count(.//p) = 3]", {nodes: ["div#d3"]}],
    ["//p[../@id=\"d1\"]", {nodes: ["p#p1","p#p2"]}],
    ["//p[ancestor::div[@id=\"d2\"]]", {nodes: ["p#p3","p#p4","p#p5","p#p6"]}],
    ["//p[following::q]", {nodes: ["p#p1","p#p2","p#p3","p#p4","p#p5"]}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('positional predicates apply in sequence, each renumbering the survivors', () => {
  it.each(cases([
    ["//*[@id=\"p3\"]/following-sibling::*[1]", {nodes: ["q"]}],
    ["//*[@id=\"p3\"]/preceding-sibling::*[1]", {nodes: []}],
    ["(//p)[position() > 2][1]", {nodes: ["p#p3"]}],
    ["//p[position() > 1][last()]", {nodes: ["p#p2","p#p4"]}],
    ["//p[@id][2]", {nodes: ["p#p2","p#p4"]}],
    ["//p[2][@id]", {nodes: ["p#p2","p#p4"]}],
    ["//div/p[position() = last()]", {nodes: ["p#p2","p#p4","p#p6"]}],
    ["//div/*[self::p or self::q][2]", {nodes: ["p#p2","q"]}],
    ["//div[last()]", {nodes: ["div#d2","div#d3"]}],
    ["//*[last()][self::p]", {nodes: ["p#p2","p#p4","p#p5","p#p6"]}],
    ["//div[descendant::q][1]", {nodes: ["div#d1","div#d3"]}],
    ["//div[descendant::q][last()]", {nodes: ["div#d2","div#d3"]}],
    ["//*[starts-with(@id, \"p\")][position() mod 2 = 1]", {nodes: ["p#p1","p#p3","p#p5","p#p6"]}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('unions merge in document order without duplicates', () => {
  it.each(cases([
    ["//p[@id=\"p1\"] | //div", {nodes: ["div#d1","p#p1","div#d2","div#d3"]}],
    ["//div | //p[@id=\"p1\"]", {nodes: ["div#d1","p#p1","div#d2","div#d3"]}],
    ["//q | //p | //div", {nodes: ["div#d1","p#p1","p#p2","q","div#d2","div#d3","p#p3","q","p#p4","p#p5","p#p6","q"]}],
    ["//p[q] | //q", {nodes: ["p#p2","q","q","p#p6","q"]}],
    ["(//p | //q)[3]", {nodes: ["q"]}],
    ["(//p | //q)[last()]", {nodes: ["q"]}],
    ["//node()[self::q]", {nodes: ["q","q","q"]}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('filter expressions take predicates and further steps', () => {
  it.each(cases([
    ["(//div)[2]/p", {nodes: ["p#p6"]}],
    ["//q/text()", {nodes: ["\"y\"","\"y\""]}],
    ["//div[@id=\"d1\"]/p/text()[2]", {nodes: []}],
    ["count(//div//p)", {number: 6}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe("cssselect's descendant combinator, descendant-or-self::*/x, excludes the root element from the document", () => {
  it.each(cases([
    ["//div/descendant-or-self::*/p[1]", {nodes: ["p#p1","p#p3","p#p5","p#p6"]}],
    ["descendant-or-self::*/p[2]", {nodes: ["p#p2","p#p4"]}],
    ["//div/descendant-or-self::*/p[@id]", {nodes: ["p#p1","p#p2","p#p3","p#p4","p#p5","p#p6"]}],
    ["//div/descendant-or-self::*/text()", {nodes: ["\"x\"","\"x\"","\"y\"","\"z\"","\"w\"","\"v\"","\"y\""]}],
    ["/descendant-or-self::*/r", {nodes: []}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('nested queries evaluate relative to the node a previous query selected', () => {
  const root = rootElement(parseXml(DOC));

  it('runs ./, .//, text() and @ from each selected element', () => {
    const divs = evaluateXPath('//div', root) as DomNode[];
    expect(divs.map((d) => run(d, './p/@id'))).toEqual([
      { nodes: ['@id=p1', '@id=p2'] },
      { nodes: ['@id=p6'] },
      { nodes: ['@id=p3', '@id=p4'] },
    ]);
    expect(divs.map((d) => run(d, 'count(.//p)'))).toEqual([{ number: 2 }, { number: 4 }, { number: 3 }]);
    expect(run(divs[2]!, './/p[1]/text()')).toEqual({ nodes: ['"z"', '"v"'] });
    expect(run(divs[2]!, '//p[1]/@id')).toEqual({ nodes: ['@id=p1', '@id=p3', '@id=p5', '@id=p6'] });
  });

  it('returns a fresh array the caller may change', () => {
    const first = evaluateXPath('//p', root) as unknown[];
    first.length = 0;
    expect(evaluateXPath('count(//p)', root)).toBe(6);
    expect((evaluateXPath('//p', root) as unknown[]).length).toBe(6);
  });
});

describe('existence through a reverse axis (boolean(), not(), predicates)', () => {
  it('tries every ancestor, not only the nearest: parsel is true where the count is 1', () => {
    const doc = new Selector({ text: '<html><head><title>t</title></head><body><p>x</p></body></html>' });
    expect(doc.xpath('boolean(//p/ancestor::*/descendant::title)').get()).toBe('1');
    expect(doc.xpath('//p[ancestor::*/descendant::title]/text()').getall()).toEqual(['x']);
    const preceding = new Selector({ text: '<div><p></p></div><b></b>' });
    expect(preceding.xpath('boolean(//b/preceding::*/descendant::p)').get()).toBe('1');
  });
});
