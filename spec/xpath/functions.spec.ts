/**
 * The XPath 1.0 core function library. Expected values were recorded from
 * lxml 4.9.2 with scripts/xpath-oracle.py on the same markup.
 */
import { describe, expect, it } from '@jest/globals';
import { onDocument, type Described } from './helpers/run.js';

const DOC =
  '<r xml:lang="en-US"><b id="x" ref="y">1</b><b id="y">2</b><c k="3" l="4"> spaced   out\n text </c>' +
  '<d xml:lang="fr"><e>a</e></d><d xml:lang=""><e>5</e></d><?target body?><!--note--></r>';
const query = onDocument(DOC);

function cases(rows: [string, Described][]): [string, Described][] {
  return rows;
}

describe('last() and position() outside predicates', () => {
  it('are 1 at the top level, where the context is a single node (lxml raises "Invalid context size")', () => {
    expect(query('last()')).toEqual({ number: 1 });
    expect(query('position()')).toEqual({ number: 1 });
  });
});

describe('count() counts distinct nodes', () => {
  it.each(cases([
    ["count(//b)", {number: 2}],
    ["count(//zz)", {number: 0}],
    ["count(//@*)", {number: 8}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('local-name() of the first node, or of the context node', () => {
  it.each(cases([
    ["local-name()", {string: "r"}],
    ["local-name(//b)", {string: "b"}],
    ["local-name(//c/@*)", {string: "k"}],
    ["local-name(//processing-instruction())", {string: "target"}],
    ["local-name(//text())", {string: ""}],
    ["local-name(//comment())", {string: ""}],
    ["local-name(//zz)", {string: ""}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('namespace-uri() is empty outside namespaces', () => {
  it.each(cases([
    ["namespace-uri()", {string: ""}],
    ["namespace-uri(//b)", {string: ""}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('name() is the qualified name as written; PIs give their target', () => {
  it.each(cases([
    ["name()", {string: "r"}],
    ["name(//b)", {string: "b"}],
    ["name(//b/@*)", {string: "id"}],
    ["name(//processing-instruction())", {string: "target"}],
    ["name(//text())", {string: ""}],
    ["name(//zz)", {string: ""}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('string() converts as lxml does, numbers without a trailing .0', () => {
  it.each(cases([
    ["string()", {string: "12 spaced   out\n text a5"}],
    ["string(//b)", {string: "1"}],
    ["string(//zz)", {string: ""}],
    ["string(//b/@id)", {string: "x"}],
    ["string(//comment())", {string: "note"}],
    ["string(//processing-instruction())", {string: "body"}],
    ["string(1)", {string: "1"}],
    ["string(-0)", {string: "0"}],
    ["string(0.5)", {string: "0.5"}],
    ["string(true())", {string: "true"}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('concat() converts each argument to a string', () => {
  it.each(cases([
    ["concat(\"a\", \"b\")", {string: "ab"}],
    ["concat(\"a\", 1, true(), 0 div 0, 1.5)", {string: "a1trueNaN1.5"}],
    ["concat(//b, \"|\", //zz, \"|\", //b/@id)", {string: "1||x"}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('starts-with()', () => {
  it.each(cases([
    ["starts-with(\"abc\", \"\")", {boolean: true}],
    ["starts-with(\"abc\", \"ab\")", {boolean: true}],
    ["starts-with(\"abc\", \"b\")", {boolean: false}],
    ["starts-with(//b, \"1\")", {boolean: true}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('contains() is true for the empty string', () => {
  it.each(cases([
    ["contains(\"abc\", \"\")", {boolean: true}],
    ["contains(\"\", \"\")", {boolean: true}],
    ["contains(\"abc\", \"bc\")", {boolean: true}],
    ["contains(\"abc\", \"d\")", {boolean: false}],
    ["contains(//b, 1)", {boolean: true}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('substring-before() is empty when the needle is missing or empty', () => {
  it.each(cases([
    ["substring-before(\"1999/04/01\", \"/\")", {string: "1999"}],
    ["substring-before(\"abc\", \"\")", {string: ""}],
    ["substring-before(\"abc\", \"z\")", {string: ""}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('substring-after() is empty when missing and the whole string for an empty needle', () => {
  it.each(cases([
    ["substring-after(\"1999/04/01\", \"/\")", {string: "04/01"}],
    ["substring-after(\"abc\", \"\")", {string: "abc"}],
    ["substring-after(\"abc\", \"z\")", {string: ""}],
    ["substring-after(\"abc\", \"c\")", {string: ""}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('substring() rounds its bounds half up and handles NaN and infinities like lxml, counting code points', () => {
  it.each(cases([
    ["substring(\"12345\", 2, 3)", {string: "234"}],
    ["substring(\"12345\", 2)", {string: "2345"}],
    ["substring(\"12345\", 1.5, 2.6)", {string: "234"}],
    ["substring(\"12345\", 0, 3)", {string: "12"}],
    ["substring(\"12345\", 0 div 0, 3)", {string: ""}],
    ["substring(\"12345\", 1, 0 div 0)", {string: ""}],
    ["substring(\"12345\", -42, 1 div 0)", {string: "12345"}],
    ["substring(\"12345\", -1 div 0, 1 div 0)", {string: ""}],
    ["substring(\"12345\", 1.5)", {string: "2345"}],
    ["substring(\"12345\", -0.5)", {string: "12345"}],
    ["substring(\"12345\", 2.5, -1)", {string: ""}],
    ["substring(\"12345\", 5, 10)", {string: "5"}],
    ["substring(\"12345\", 6)", {string: ""}],
    ["substring(\"12345\", 0)", {string: "12345"}],
    ["substring(\"12345\", 1 div 0)", {string: ""}],
    ["substring(\"12345\", 2.4999, 1.5)", {string: "23"}],
    ["substring(\"a😀b\", 2, 1)", {string: "😀"}],
    ["substring(\"😀😀😀\", 2)", {string: "😀😀"}],
    ["substring(\"😀😀😀\", 1, 2)", {string: "😀😀"}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('string-length() counts code points, not UTF-16 units', () => {
  it.each(cases([
    ["string-length(\"a😀b\")", {number: 3}],
    ["string-length(\"\")", {number: 0}],
    ["string-length()", {number: 24}],
    ["string-length(//b)", {number: 1}],
    ["string-length(12.5)", {number: 4}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('normalize-space() collapses XML whitespace only', () => {
  it.each(cases([
    ["normalize-space(\"  a   b  \")", {string: "a b"}],
    ["normalize-space(\"a\tb\tc\")", {string: "a b c"}],
    ["normalize-space(\"\")", {string: ""}],
    ["normalize-space()", {string: "12 spaced out text a5"}],
    ["normalize-space(//c)", {string: "spaced out text"}],
    ["normalize-space(\" x \")", {string: "x"}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('translate() maps code points, the first mapping wins, extra characters are removed', () => {
  it.each(cases([
    ["translate(\"bar\", \"abc\", \"ABC\")", {string: "BAr"}],
    ["translate(\"--aaa--\", \"abc-\", \"ABC\")", {string: "AAA"}],
    ["translate(\"aba\", \"aa\", \"xy\")", {string: "xbx"}],
    ["translate(\"a😀b\", \"😀\", \"x\")", {string: "axb"}],
    ["translate(\"abc\", \"\", \"x\")", {string: "abc"}],
    ["translate(\"\", \"a\", \"b\")", {string: ""}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('boolean(), not(), true(), false()', () => {
  it.each(cases([
    ["boolean(\"\")", {boolean: false}],
    ["boolean(\"0\")", {boolean: true}],
    ["boolean(0)", {boolean: false}],
    ["boolean(-0)", {boolean: false}],
    ["boolean(0 div 0)", {boolean: false}],
    ["boolean(1 div 0)", {boolean: true}],
    ["boolean(//zz)", {boolean: false}],
    ["boolean(//b)", {boolean: true}],
    ["not(0)", {boolean: true}],
    ["not(\"\")", {boolean: true}],
    ["not(//b)", {boolean: false}],
    ["true()", {boolean: true}],
    ["false()", {boolean: false}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('lang() follows xml:lang up the tree, case-insensitively, matching subtags', () => {
  it.each(cases([
    ["lang(\"en\")", {boolean: true}],
    ["//*[lang(\"en\")]", {nodes: ["r","b#x","b#y","c"]}],
    ["//*[lang(\"EN\")]", {nodes: ["r","b#x","b#y","c"]}],
    ["//*[lang(\"en-GB\")]", {nodes: []}],
    ["//*[lang(\"e\")]", {nodes: []}],
    ["//*[lang(\"fr\")]", {nodes: ["d","e"]}],
    ["//*[lang(\"\")]", {nodes: ["d","e"]}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('number() accepts what lxml accepts: blanks, a minus, digits, a fraction, an exponent', () => {
  it.each(cases([
    ["number()", {number: "NaN"}],
    ["number(\"12\")", {number: 12}],
    ["number(\" 12 \")", {number: 12}],
    ["number(\"-12.5e1\")", {number: -125}],
    ["number(\"+1\")", {number: "NaN"}],
    ["number(\".5\")", {number: 0.5}],
    ["number(\"5.\")", {number: 5}],
    ["number(\"-\")", {number: "-0"}],
    ["number(\"\")", {number: "NaN"}],
    ["number(\"1e\")", {number: 1}],
    ["number(\"Infinity\")", {number: "NaN"}],
    ["number(\"1,5\")", {number: "NaN"}],
    ["number(true())", {number: 1}],
    ["number(//b)", {number: 1}],
    ["number(//zz)", {number: "NaN"}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('sum() adds the number of each node; one NaN makes NaN', () => {
  it.each(cases([
    ["sum(//b)", {number: 3}],
    ["sum(//zz)", {number: 0}],
    ["sum(//c/@*)", {number: 7}],
    ["sum(//e)", {number: "NaN"}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('floor() and ceiling() keep negative zero', () => {
  it.each(cases([
    ["floor(2.7)", {number: 2}],
    ["floor(-1.5)", {number: -2}],
    ["floor(-0.5)", {number: -1}],
    ["1 div floor(-0)", {number: "-Infinity"}],
    ["ceiling(2.1)", {number: 3}],
    ["ceiling(-1.5)", {number: -1}],
    ["ceiling(-0.5)", {number: "-0"}],
    ["1 div ceiling(-0.5)", {number: "-Infinity"}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('round() rounds half up and keeps negative zero, as lxml', () => {
  it.each(cases([
    ["round(2.5)", {number: 3}],
    ["round(-2.5)", {number: -2}],
    ["round(-0.5)", {number: "-0"}],
    ["1 div round(-0.5)", {number: "-Infinity"}],
    ["round(-0.4)", {number: "-0"}],
    ["1 div round(-0.4)", {number: "-Infinity"}],
    ["round(0.4)", {number: 0}],
    ["round(0.5)", {number: 1}],
    ["round(1.4999999999999998)", {number: 1}],
    ["round(0 div 0)", {number: "NaN"}],
    ["round(1 div 0)", {number: "Infinity"}],
    ["round(-1 div 0)", {number: "-Infinity"}],
    ["round(4503599627370497)", {number: 4503599627370497}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('id() finds elements by ID', () => {
  // Recorded with lxml's HTML parser (parsel's default), where `id` attributes are IDs.
  const html = onDocument(
    '<html><body><b id="x" ref="y">1</b><b id="y">2</b><i id="dup">first</i><i id="dup">second</i><u xml:id="xi"/><p id="1">one</p></body></html>',
  );
  it.each(cases([
    ["id(\"x\")", {nodes: ["b#x"]}],
    ["id(\"x y\")", {nodes: ["b#x","b#y"]}],
    ["id(\"  y   x  \")", {nodes: ["b#x"]}],
    ["id(\"zz\")", {nodes: []}],
    ["id(//b/@ref)", {nodes: ["b#y"]}],
    ["id(//nothing)", {nodes: []}],
    ["id(1)", {nodes: ["p#1"]}],
    ["count(id(\"x x\"))", {number: 1}],
    ["id(\"x\")/text()", {nodes: ["\"1\""]}],
    ["id(\"dup\")", {nodes: ["i#dup"]}],
    ["id(\"xi\")", {nodes: ["u"]}],
    ["id(//b)", {nodes: ["p#1"]}],
  ]))('%s', (expr, expected) => expect(html(expr)).toEqual(expected));

  it('also treats `id` attributes as IDs in XML documents, where lxml needs a DTD', () => {
    expect(query('id("x")')).toEqual({ nodes: ['b#x'] });
  });
});
