/**
 * XML namespaces: prefixed name tests resolved through the query's
 * namespaces, unprefixed names matching only elements in no namespace, and
 * the namespace axis. Expected values were recorded from lxml 4.9.2 with
 * scripts/xpath-oracle.py (--ns for the prefixes below).
 */
import { describe, expect, it } from '@jest/globals';
import { onDocument, type Described } from './helpers/run.js';

function cases(rows: [string, Described][]): [string, Described][] {
  return rows;
}

const FEED =
  '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xml:lang="en">' +
  '<entry dc:x="1" y="2"><dc:creator>Bob</dc:creator><title lang="de" xml:lang="de-CH">T</title></entry>' +
  '<x:item xmlns:x="urn:x" x:at="q"><sub/><x:sub/></x:item></feed>';

describe('name tests in namespaced XML', () => {
  const query = onDocument(FEED, {
    namespaces: { a: 'http://www.w3.org/2005/Atom', d: 'http://purl.org/dc/elements/1.1/', x: 'urn:x', p: 'urn:x' },
  });

  it.each(cases([
    ["//entry", {nodes: []}],
    ["//a:entry", {nodes: ["entry"]}],
    ["//d:creator", {nodes: ["dc:creator"]}],
    ["name(//d:creator)", {string: "dc:creator"}],
    ["local-name(//d:creator)", {string: "creator"}],
    ["namespace-uri(//d:creator)", {string: "http://purl.org/dc/elements/1.1/"}],
    ["name(/*)", {string: "feed"}],
    ["namespace-uri(/*)", {string: "http://www.w3.org/2005/Atom"}],
    ["//a:entry/@*", {nodes: ["@dc:x=1","@y=2"]}],
    ["name(//a:entry/@*[1])", {string: "dc:x"}],
    ["namespace-uri(//a:entry/@*[1])", {string: "http://purl.org/dc/elements/1.1/"}],
    ["//a:entry/@d:x", {nodes: ["@dc:x=1"]}],
    ["//a:entry/@y", {nodes: ["@y=2"]}],
    ["//a:entry/@a:y", {nodes: []}],
    ["//d:*", {nodes: ["dc:creator"]}],
    ["//a:*", {nodes: ["feed","entry","title","sub"]}],
    ["//*[local-name()=\"title\"][lang(\"en\")]", {nodes: []}],
    ["//*[lang(\"EN-us\")]", {nodes: []}],
    ["//*[lang(\"e\")]", {nodes: []}],
    ["//*[lang(\"en\")]", {nodes: ["feed","entry","dc:creator","x:item","sub","x:sub"]}],
    ["//a:title[lang(\"de\")]", {nodes: ["title"]}],
    ["lang(\"en\")", {boolean: true}],
    ["//@xml:lang", {nodes: ["@xml:lang=en","@xml:lang=de-CH"]}],
    ["name(//@xml:lang)", {string: "xml:lang"}],
    ["namespace-uri(//@xml:lang)", {string: "http://www.w3.org/XML/1998/namespace"}],
    ["//xml:*", {nodes: []}],
    ["//@xml:*", {nodes: ["@xml:lang=en","@xml:lang=de-CH"]}],
    ["//*[namespace-uri()=\"urn:x\"]", {nodes: ["x:item","x:sub"]}],
    ["//x:item", {nodes: ["x:item"]}],
    ["//x:item/x:sub", {nodes: ["x:sub"]}],
    ["//x:item/sub", {nodes: []}],
    ["count(//*)", {number: 7}],
    ["//*[name()=\"dc:creator\"]", {nodes: ["dc:creator"]}],
    ["//a:entry/a:title/text()", {nodes: ["\"T\""]}],
    ["//a:entry/*", {nodes: ["dc:creator","title"]}],
    ["//p:item", {nodes: ["x:item"]}],
    ["//p:item/@p:at", {nodes: ["@x:at=q"]}],
    ["//@*[namespace-uri()=\"urn:x\"]", {nodes: ["@x:at=q"]}],
    ["name(//@*[namespace-uri()=\"urn:x\"])", {string: "x:at"}],
    ["//a:feed/@*", {nodes: ["@xml:lang=en"]}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));

  it('does not see the document\'s own prefixes, only the query\'s', () => {
    expect(query('//dc:creator')).toEqual({
      error: "Invalid XPath: '//dc:creator' at position 2: undefined namespace prefix 'dc' (register it in the namespaces passed to the query)",
    });
  });

  it('binds xml always, and re and set unless the query rebinds them', () => {
    const rebound = onDocument(FEED, { namespaces: { xml: 'urn:not-xml', re: 'urn:mine', set: 'http://purl.org/dc/elements/1.1/' } });
    expect(rebound('string(/*/@xml:lang)')).toEqual({ string: 'en' });
    expect(rebound('count(//set:creator)')).toEqual({ number: 1 });
    expect(rebound('re:test("a", "a")')).toEqual({ error: "Invalid XPath: 're:test(\"a\", \"a\")' at position 0: unknown function 're:test()'" });
  });

  it('compiles an expression again for another binding of its prefixes', () => {
    const atom = onDocument(FEED, { namespaces: { n: 'http://www.w3.org/2005/Atom' } });
    const dc = onDocument(FEED, { namespaces: { n: 'http://purl.org/dc/elements/1.1/' } });
    expect(atom('count(//n:*)')).toEqual({ number: 4 });
    expect(dc('count(//n:*)')).toEqual({ number: 1 });
    expect(atom('count(//n:*)')).toEqual({ number: 4 });
  });
});

describe('the namespace axis', () => {
  const query = onDocument(
    '<r xmlns="urn:d" xmlns:a="urn:a" q="1"><s xmlns:b="urn:b" xmlns:a="urn:a2" z="2"><t xmlns="" xmlns:c="urn:c"/><u/></s><v/></r>',
  );

  it.each(cases([
    ["/*/namespace::*", {nodes: ["xmlns:xml=http://www.w3.org/XML/1998/namespace","xmlns:a=urn:a","xmlns:None=urn:d"]}],
    ["//*[local-name()=\"s\"]/namespace::*", {nodes: ["xmlns:xml=http://www.w3.org/XML/1998/namespace","xmlns:None=urn:d","xmlns:a=urn:a2","xmlns:b=urn:b"]}],
    ["//t/namespace::*", {nodes: ["xmlns:xml=http://www.w3.org/XML/1998/namespace","xmlns:a=urn:a2","xmlns:b=urn:b","xmlns:c=urn:c","xmlns:None="]}],
    ["//t/namespace::*[1]", {nodes: ["xmlns:xml=http://www.w3.org/XML/1998/namespace"]}],
    ["//t/namespace::*[2]", {nodes: ["xmlns:a=urn:a2"]}],
    ["//t/namespace::*[last()]", {nodes: ["xmlns:None="]}],
    ["name(//t/namespace::*[2])", {string: "a"}],
    ["local-name(//t/namespace::*[2])", {string: "a"}],
    ["namespace-uri(//t/namespace::*[2])", {string: ""}],
    ["string(//t/namespace::*[2])", {string: "urn:a2"}],
    ["count(//namespace::*)", {number: 19}],
    ["count(//t/namespace::* | //t/namespace::*)", {number: 5}],
    ["//t/namespace::c", {nodes: ["xmlns:c=urn:c"]}],
    ["//t/namespace::node()", {nodes: ["xmlns:xml=http://www.w3.org/XML/1998/namespace","xmlns:a=urn:a2","xmlns:b=urn:b","xmlns:c=urn:c","xmlns:None="]}],
    ["//t/namespace::*/..", {nodes: ["t"]}],
    ["//t/namespace::*/parent::*", {nodes: ["t"]}],
    ["count(//t/namespace::*/ancestor::*)", {number: 3}],
    ["//t/@*", {nodes: []}],
    ["//t/namespace::*/self::node()", {nodes: ["xmlns:xml=http://www.w3.org/XML/1998/namespace","xmlns:a=urn:a2","xmlns:b=urn:b","xmlns:c=urn:c","xmlns:None="]}],
    ["count(//t/namespace::*[.=\"urn:c\"])", {number: 1}],
    ["//t/namespace::*/following::*", {nodes: ["u","v"]}],
    ["//t/namespace::*/preceding-sibling::*", {nodes: []}],
    ["//t/namespace::text()", {nodes: []}],
    ["//t/namespace::*/preceding::*", {nodes: []}],
    ["count(//*[local-name()=\"s\"]/namespace::*/following::*)", {number: 1}],
    ["count(//*[local-name()=\"s\"]/namespace::*/preceding::*)", {number: 0}],
    ["//*[local-name()=\"s\"]/namespace::* | //*[local-name()=\"s\"]/@*", {nodes: ["xmlns:xml=http://www.w3.org/XML/1998/namespace","xmlns:None=urn:d","xmlns:a=urn:a2","xmlns:b=urn:b","@z=2"]}],
    ["name(//t/namespace::*[last()])", {string: ""}],
    ["//t/namespace::*[name()=\"\"]", {nodes: ["xmlns:None="]}],
    ["//u/namespace::*", {nodes: []}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));

  it('gives HTML elements the xml namespace only', () => {
    const html = onDocument('<html><body><p>x</p></body></html>');
    expect(html('//p/namespace::*')).toEqual({ nodes: ['xmlns:xml=http://www.w3.org/XML/1998/namespace'] });
  });
});
