/**
 * The 13 axes. Expected values were recorded from lxml 4.9.2 with
 * scripts/xpath-oracle.py on the same markup, except where a comment says
 * otherwise: lxml's Python layer drops document nodes from results ('/'
 * below), seine's engine returns them as XPath defines.
 */
import { describe, expect, it } from '@jest/globals';
import { ATTRIBUTE, DOCUMENT, DomNode, ELEMENT, numberTree, TEXT } from '../../src/dom/node.js';
import { evaluateXPath } from '../../src/xpath/index.js';
import { onDocument, run, type Described } from './helpers/run.js';
import { describeNode, parseXml, rootElement } from './helpers/tiny-xml.js';

const DOC =
  '<a id="a"><b id="b1" k="1">t1<!--c1--><c id="c1"/></b><b id="b2">t2<c id="c2"><b id="b4">t5</b><d id="d1">t3</d></c><c id="c3"/></b>' +
  't4<e id="e1" x="1" y="2"><?pi one?><b id="b3"/></e><!--c2--></a>';
const query = onDocument(DOC);

function cases(rows: [string, Described][]): [string, Described][] {
  return rows;
}

describe('axes from element, attribute and text context nodes', () => {
  describe("child:: selects children in document order, text and comments included", () => {
    it.each(cases([
    ["child::*", {nodes: ["b#b1","b#b2","e#e1"]}],
    ["child::node()", {nodes: ["b#b1","b#b2","\"t4\"","e#e1","<!--c2-->"]}],
    ["child::b", {nodes: ["b#b1","b#b2"]}],
    ["child::text()", {nodes: ["\"t4\""]}],
    ["//b[@id=\"b2\"]/child::node()", {nodes: ["\"t2\"","c#c2","c#c3"]}],
    ["//c[@id=\"c2\"]/child::*", {nodes: ["b#b4","d#d1"]}],
    ["//e/child::processing-instruction()", {nodes: ["<?pi one?>"]}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
  describe("descendant:: selects the whole subtree below the context node in document order", () => {
    it.each(cases([
    ["descendant::*", {nodes: ["b#b1","c#c1","b#b2","c#c2","b#b4","d#d1","c#c3","e#e1","b#b3"]}],
    ["descendant::node()", {nodes: ["b#b1","\"t1\"","<!--c1-->","c#c1","b#b2","\"t2\"","c#c2","b#b4","\"t5\"","d#d1","\"t3\"","c#c3","\"t4\"","e#e1","<?pi one?>","b#b3","<!--c2-->"]}],
    ["descendant::b", {nodes: ["b#b1","b#b2","b#b4","b#b3"]}],
    ["//b[@id=\"b2\"]/descendant::*", {nodes: ["c#c2","b#b4","d#d1","c#c3"]}],
    ["//b[@id=\"b2\"]/descendant::text()", {nodes: ["\"t2\"","\"t5\"","\"t3\""]}],
    ["//c[@id=\"c1\"]/descendant::node()", {nodes: []}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
  describe("descendant-or-self:: adds the context node itself", () => {
    it.each(cases([
    ["descendant-or-self::b", {nodes: ["b#b1","b#b2","b#b4","b#b3"]}],
    ["descendant-or-self::*[@id=\"a\"]", {nodes: ["a#a"]}],
    ["//b[@id=\"b2\"]/descendant-or-self::b", {nodes: ["b#b2","b#b4"]}],
    ["//b[@id=\"b2\"]/descendant-or-self::node()", {nodes: ["b#b2","\"t2\"","c#c2","b#b4","\"t5\"","d#d1","\"t3\"","c#c3"]}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
  describe("parent:: selects the parent, also of attributes and text", () => {
    it.each(cases([
    ["parent::node()", {nodes: ["/"]}],
    ["//d/parent::*", {nodes: ["c#c2"]}],
    ["//d/parent::b", {nodes: []}],
    ["//@k/parent::*", {nodes: ["b#b1"]}],
    ["//d/text()/parent::d", {nodes: ["d#d1"]}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
  describe("ancestor:: selects the ancestors in document order, attributes' ancestors starting at their element", () => {
    it.each(cases([
    ["ancestor::*", {nodes: []}],
    ["//d/ancestor::*", {nodes: ["a#a","b#b2","c#c2"]}],
    ["//d/ancestor::node()", {nodes: ["/","a#a","b#b2","c#c2"]}],
    ["//b[@id=\"b4\"]/ancestor::b", {nodes: ["b#b2"]}],
    ["//@x/ancestor::*", {nodes: ["a#a","e#e1"]}],
    ["//d/text()/ancestor::*", {nodes: ["a#a","b#b2","c#c2","d#d1"]}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
  describe("ancestor-or-self:: adds the context node itself", () => {
    it.each(cases([
    ["//d/ancestor-or-self::*", {nodes: ["a#a","b#b2","c#c2","d#d1"]}],
    ["//@x/ancestor-or-self::node()", {nodes: ["/","a#a","e#e1","@x=1"]}],
    ["//b[@id=\"b4\"]/ancestor-or-self::b", {nodes: ["b#b2","b#b4"]}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
  describe("following-sibling:: selects later siblings, none for attributes", () => {
    it.each(cases([
    ["//b[@id=\"b1\"]/following-sibling::*", {nodes: ["b#b2","e#e1"]}],
    ["//b[@id=\"b1\"]/following-sibling::node()", {nodes: ["b#b2","\"t4\"","e#e1","<!--c2-->"]}],
    ["//b[@id=\"b2\"]/following-sibling::b", {nodes: []}],
    ["//@x/following-sibling::node()", {nodes: []}],
    ["//b[@id=\"b1\"]/text()/following-sibling::node()", {nodes: ["<!--c1-->","c#c1"]}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
  describe("preceding-sibling:: selects earlier siblings in document order, none for attributes", () => {
    it.each(cases([
    ["//e/preceding-sibling::*", {nodes: ["b#b1","b#b2"]}],
    ["//e/preceding-sibling::node()", {nodes: ["b#b1","b#b2","\"t4\""]}],
    ["//c[@id=\"c3\"]/preceding-sibling::*", {nodes: ["c#c2"]}],
    ["//@y/preceding-sibling::node()", {nodes: []}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
  describe("following:: selects everything after the subtree, from an attribute after its element's subtree (as lxml)", () => {
    it.each(cases([
    ["//b[@id=\"b1\"]/following::*", {nodes: ["b#b2","c#c2","b#b4","d#d1","c#c3","e#e1","b#b3"]}],
    ["//b[@id=\"b1\"]/following::node()", {nodes: ["b#b2","\"t2\"","c#c2","b#b4","\"t5\"","d#d1","\"t3\"","c#c3","\"t4\"","e#e1","<?pi one?>","b#b3","<!--c2-->"]}],
    ["//d/following::node()", {nodes: ["c#c3","\"t4\"","e#e1","<?pi one?>","b#b3","<!--c2-->"]}],
    ["//@x/following::node()", {nodes: ["<!--c2-->"]}],
    ["//@k/following::*", {nodes: ["b#b2","c#c2","b#b4","d#d1","c#c3","e#e1","b#b3"]}],
    ["//b[@id=\"b1\"]/text()/following::*", {nodes: ["c#c1","b#b2","c#c2","b#b4","d#d1","c#c3","e#e1","b#b3"]}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
  describe("preceding:: selects everything before the node except its ancestors", () => {
    it.each(cases([
    ["//e/preceding::*", {nodes: ["b#b1","c#c1","b#b2","c#c2","b#b4","d#d1","c#c3"]}],
    ["//e/preceding::node()", {nodes: ["b#b1","\"t1\"","<!--c1-->","c#c1","b#b2","\"t2\"","c#c2","b#b4","\"t5\"","d#d1","\"t3\"","c#c3","\"t4\""]}],
    ["//d/preceding::*", {nodes: ["b#b1","c#c1","b#b4"]}],
    ["//b[@id=\"b3\"]/preceding::node()", {nodes: ["b#b1","\"t1\"","<!--c1-->","c#c1","b#b2","\"t2\"","c#c2","b#b4","\"t5\"","d#d1","\"t3\"","c#c3","\"t4\"","<?pi one?>"]}],
    ["//@x/preceding::*", {nodes: ["b#b1","c#c1","b#b2","c#c2","b#b4","d#d1","c#c3"]}],
    ["//@y/preceding::text()", {nodes: ["\"t1\"","\"t2\"","\"t5\"","\"t3\"","\"t4\""]}],
    ["//b[@id=\"b4\"]/text()/preceding::node()", {nodes: ["b#b1","\"t1\"","<!--c1-->","c#c1","\"t2\""]}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
  describe("self:: tests the context node itself; * never matches attributes there", () => {
    it.each(cases([
    ["self::*", {nodes: ["a#a"]}],
    ["self::a", {nodes: ["a#a"]}],
    ["self::b", {nodes: []}],
    ["//b/self::b", {nodes: ["b#b1","b#b2","b#b4","b#b3"]}],
    ["//@k/self::node()", {nodes: ["@k=1"]}],
    ["//@k/self::*", {nodes: []}],
    ["//text()/self::text()", {nodes: ["\"t1\"","\"t2\"","\"t5\"","\"t3\"","\"t4\""]}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
  describe("attribute:: selects attributes in the order written", () => {
    it.each(cases([
    ["attribute::*", {nodes: ["@id=a"]}],
    ["//e/attribute::*", {nodes: ["@id=e1","@x=1","@y=2"]}],
    ["//e/attribute::y", {nodes: ["@y=2"]}],
    ["//@*", {nodes: ["@id=a","@id=b1","@k=1","@id=c1","@id=b2","@id=c2","@id=b4","@id=d1","@id=c3","@id=e1","@x=1","@y=2","@id=b3"]}],
    ["//b/@*", {nodes: ["@id=b1","@k=1","@id=b2","@id=b4","@id=b3"]}],
    ["//e/@*/attribute::*", {nodes: []}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
  describe("namespace:: selects the in-scope namespaces, xml first", () => {
    it.each(cases([
    ["//b[@id=\"b1\"]/namespace::*", {nodes: ["xmlns:xml=http://www.w3.org/XML/1998/namespace"]}],
    ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
  });
});

describe('positions on reverse axes count backwards from the context node', () => {
  it.each(cases([
    ["//d/ancestor::*[1]", {nodes: ["c#c2"]}],
    ["//d/ancestor::*[last()]", {nodes: ["a#a"]}],
    ["//d/ancestor::*[2]", {nodes: ["b#b2"]}],
    ["//d/ancestor-or-self::*[1]", {nodes: ["d#d1"]}],
    ["//e/preceding-sibling::*[1]", {nodes: ["b#b2"]}],
    ["//e/preceding-sibling::node()[1]", {nodes: ["\"t4\""]}],
    ["//e/preceding-sibling::*[last()]", {nodes: ["b#b1"]}],
    ["//e/preceding::*[1]", {nodes: ["c#c3"]}],
    ["//e/preceding::*[3]", {nodes: ["b#b4"]}],
    ["//e/preceding::node()[position() < 3]", {nodes: ["c#c3","\"t4\""]}],
    ["//b[@id=\"b1\"]/following::*[1]", {nodes: ["b#b2"]}],
    ["//b[@id=\"b1\"]/following::*[last()]", {nodes: ["b#b3"]}],
    ["//b[@id=\"b1\"]/following-sibling::*[2]", {nodes: ["e#e1"]}],
    ["//d/following::node()[1]", {nodes: ["c#c3"]}],
    ["(//d/ancestor::*)[1]", {nodes: ["a#a"]}],
    ["(//e/preceding::*)[1]", {nodes: ["b#b1"]}],
    ["(//e/preceding::*)[last()]", {nodes: ["c#c3"]}],
    ["//d/ancestor::*[position() = 2]", {nodes: ["b#b2"]}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('axes inside predicates', () => {
  it.each(cases([
    ["//*[ancestor::b]", {nodes: ["c#c1","c#c2","b#b4","d#d1","c#c3"]}],
    ["//*[preceding-sibling::b]", {nodes: ["b#b2","d#d1","e#e1"]}],
    ["//*[following::e]", {nodes: ["b#b1","c#c1","b#b2","c#c2","b#b4","d#d1","c#c3"]}],
    ["//node()[preceding::comment()]", {nodes: ["c#c1","b#b2","\"t2\"","c#c2","b#b4","\"t5\"","d#d1","\"t3\"","c#c3","\"t4\"","e#e1","<?pi one?>","b#b3","<!--c2-->"]}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('counting along axes', () => {
  it.each(cases([
    ["count(//d/ancestor::node())", {number: 4}],
    ["count(//e/preceding::node())", {number: 13}],
    ["count(//b[@id=\"b1\"]/following::node())", {number: 13}],
    ["count(descendant::node())", {number: 17}],
    ["count(//@*/ancestor::*)", {number: 10}],
    ["count(//node()/parent::node())", {number: 8}],
  ]))('%s', (expr, expected) => expect(query(expr)).toEqual(expected));
});

describe('context nodes other than elements', () => {
  const doc = parseXml(DOC);
  const root = rootElement(doc);
  const b1 = root.children[0]!;
  const text = b1.children[0]!;
  const attr = root.children[3]!.attrs[2]!;

  it('evaluates relative paths from a text node', () => {
    expect(run(text, '..')).toEqual({ nodes: ['b#b1'] });
    expect(run(text, '.')).toEqual({ nodes: ['"t1"'] });
    expect(run(text, 'string()')).toEqual({ string: 't1' });
    expect(run(text, 'following-sibling::node()')).toEqual({ nodes: ['<!--c1-->', 'c#c1'] });
    expect(run(text, 'child::node()')).toEqual({ nodes: [] });
    expect(run(text, 'ancestor::*/@id')).toEqual({ nodes: ['@id=a', '@id=b1'] });
  });

  it('evaluates relative paths from an attribute node', () => {
    expect(describeNode(attr)).toBe('@y=2');
    expect(run(attr, '..')).toEqual({ nodes: ['e#e1'] });
    expect(run(attr, 'string()')).toEqual({ string: '2' });
    expect(run(attr, 'name()')).toEqual({ string: 'y' });
    expect(run(attr, 'following::node()')).toEqual({ nodes: ['<!--c2-->'] });
    expect(run(attr, 'preceding-sibling::node() | following-sibling::node() | child::node()')).toEqual({ nodes: [] });
    expect(run(attr, 'self::node()')).toEqual({ nodes: ['@y=2'] });
  });

  it('evaluates from the document node', () => {
    expect(run(doc, '*')).toEqual({ nodes: ['a#a'] });
    expect(run(doc, '.')).toEqual({ nodes: ['/'] });
    expect(run(doc, '..')).toEqual({ nodes: [] });
    expect(run(doc, 'count(descendant::node())')).toEqual({ number: 18 });
    expect(run(doc, 'name()')).toEqual({ string: '' });
  });

  it('selects the document with / from any node of the tree', () => {
    expect(run(text, '/')).toEqual({ nodes: ['/'] });
    expect(run(attr, '/a/@id')).toEqual({ nodes: ['@id=a'] });
  });
});

/** Document order by definition: pre-order, attributes right after their element. */
function documentOrder(doc: DomNode): DomNode[] {
  const out: DomNode[] = [];
  const visit = (n: DomNode): void => {
    out.push(n);
    out.push(...n.attrs);
    n.children.forEach(visit);
  };
  visit(doc);
  return out;
}

function ancestors(n: DomNode): DomNode[] {
  const out: DomNode[] = [];
  for (let p = n.parent; p !== null; p = p.parent) out.unshift(p);
  return out;
}

function isInside(n: DomNode, root: DomNode): boolean {
  for (let p = n.parent; p !== null; p = p.parent) if (p === root) return true;
  return false;
}

/** Straight from the definitions (and lxml's choice for attributes on following/preceding). */
function referenceAxis(all: DomNode[], n: DomNode, axis: string): DomNode[] {
  const notAttr = (x: DomNode) => x.kind !== ATTRIBUTE;
  const anchor = n.kind === ATTRIBUTE ? n.parent! : n;
  switch (axis) {
    case 'descendant':
      return all.filter((x) => notAttr(x) && isInside(x, n));
    case 'descendant-or-self':
      return [n, ...all.filter((x) => notAttr(x) && isInside(x, n))];
    case 'ancestor':
      return ancestors(n);
    case 'following':
      return all.filter((x) => notAttr(x) && x.order > anchor.order && !isInside(x, anchor));
    case 'preceding':
      return all.filter((x) => notAttr(x) && x.order < anchor.order && !ancestors(anchor).includes(x));
    case 'following-sibling':
      return n.kind === ATTRIBUTE || n.parent === null ? [] : n.parent.children.slice(n.index + 1);
    case 'preceding-sibling':
      return n.kind === ATTRIBUTE || n.parent === null ? [] : n.parent.children.slice(0, n.index);
    default:
      throw new Error(axis);
  }
}

/** A deterministic tree of over 1,000 nodes: big enough for the document-order index, irregular enough to matter. */
function bigTree(): DomNode {
  let seed = 7;
  // mulberry32
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const grow = (parent: DomNode, depth: number): void => {
    const count = depth === 0 ? 1 : depth < 5 ? 3 + Math.floor(random() * 4) : Math.floor(random() * (depth > 7 ? 2 : 4));
    for (let i = 0; i < count; i++) {
      if (depth > 0 && random() < 0.3) {
        parent.append(new DomNode(TEXT, '', `t${depth}`));
        continue;
      }
      const el = new DomNode(ELEMENT, random() < 0.5 ? 'p' : 'q', '');
      if (random() < 0.5) el.addAttr(new DomNode(ATTRIBUTE, 'k', String(i)));
      parent.append(el);
      grow(el, depth + 1);
    }
  };
  let doc: DomNode;
  do {
    doc = new DomNode(DOCUMENT, '', '');
    grow(doc, 0);
  } while (documentOrder(doc).length < 1000);
  numberTree(doc);
  return doc;
}

/** Doubles every order: still document order, but no longer positions, so scans walk the tree instead of using the index. */
function spreadOrders(doc: DomNode): DomNode {
  for (const n of documentOrder(doc)) n.order *= 2;
  return doc;
}

describe.each([
  ['the document-order index', (d: DomNode) => d],
  ['tree walks (orders are not positions)', spreadOrders],
])('axes on a large tree agree with their definitions, scanned with %s', (_how, prepare) => {
  const doc = prepare(bigTree());
  const all = documentOrder(doc);
  const sample = all.filter((_, i) => i % 7 === 0);
  const axes = ['descendant', 'descendant-or-self', 'ancestor', 'following', 'preceding', 'following-sibling', 'preceding-sibling'];

  it('has more than 1,000 nodes, enough for the index', () => {
    expect(all.length).toBeGreaterThan(1000);
  });

  it.each(axes)('%s::node() from every 7th node, attributes included', (axis) => {
    for (const n of sample) {
      const got = evaluateXPath(`${axis}::node()`, n) as DomNode[];
      expect(got.map((x) => x.order)).toEqual(referenceAxis(all, n, axis).map((x) => x.order));
    }
  });

  it.each(axes)('count(%s::p) from every 7th node matches the definition', (axis) => {
    for (const n of sample) {
      const want = referenceAxis(all, n, axis).filter((x) => x.kind === ELEMENT && x.name === 'p').length;
      expect(evaluateXPath(`count(${axis}::p)`, n)).toBe(want);
    }
  });

  it('//p/descendant::q from nested p elements is in document order without duplicates', () => {
    const got = evaluateXPath('//p/descendant::q', doc) as DomNode[];
    const want = all.filter((x) => x.kind === ELEMENT && x.name === 'q' && ancestors(x).some((a) => a.name === 'p'));
    expect(got).toEqual(want);
  });

  it('//@k scans every attribute in document order', () => {
    expect(evaluateXPath('//@k', doc)).toEqual(all.filter((x) => x.kind === ATTRIBUTE));
  });
});

describe('deep documents', () => {
  it('are walked without recursion: 50,000 nested elements', () => {
    const doc = new DomNode(DOCUMENT, '', '');
    let cur = doc;
    for (let i = 0; i < 50000; i++) {
      const el = new DomNode(ELEMENT, i % 2 === 0 ? 'a' : 'b', '');
      cur.append(el);
      cur = el;
    }
    cur.append(new DomNode(TEXT, '', 'leaf'));
    numberTree(doc);
    expect(evaluateXPath('count(//a)', doc)).toBe(25000);
    expect(evaluateXPath('count(//a//b)', doc)).toBe(25000);
    expect(evaluateXPath('string(/)', doc)).toBe('leaf');
    expect(evaluateXPath('count(//text()/ancestor::*)', doc)).toBe(50000);
    expect(evaluateXPath('count(//text()/preceding::node())', doc)).toBe(0);
    expect(evaluateXPath('count(//b[1])', doc)).toBe(25000);
  });
});

describe('the document-order index', () => {
  it('sees a tree renumbered after an edit', () => {
    const tree = bigTree();
    expect(evaluateXPath('count(//p)', tree)).toBe(documentOrder(tree).filter((x) => x.name === 'p').length);
    const first = tree.children[0]!;
    first.append(new DomNode(ELEMENT, 'p', ''));
    numberTree(tree);
    const last = evaluateXPath('//p', tree) as DomNode[];
    expect(last[last.length - 1]).toBe(first.children[first.children.length - 1]);
    expect(last.length).toBe(documentOrder(tree).filter((x) => x.name === 'p').length);
  });
});
