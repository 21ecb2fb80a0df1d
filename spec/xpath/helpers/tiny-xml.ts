/**
 * Builds DomNode trees from small XML strings for the XPath tests, so a test
 * can hand the same markup to lxml (scripts/xpath-oracle.py parses it with
 * etree.fromstring) and to seine. Well-formed XML only: elements, attributes,
 * namespaces (declarations go to nsDecls, not attrs), text, CDATA (as text),
 * comments, processing instructions and the five predefined entities plus
 * character references. Whitespace text is kept, as lxml keeps it.
 */
import {
  ATTRIBUTE,
  COMMENT,
  DOCUMENT,
  DomNode,
  ELEMENT,
  numberTree,
  PROCESSING_INSTRUCTION,
  TEXT,
} from '../../../src/dom/node.js';
import { NAMESPACE } from '../../../src/xpath/index.js';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g, (_m, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[e]!;
  });
}

function lookup(el: DomNode | null, prefix: string): string | undefined {
  if (prefix === 'xml') return XML_NS;
  for (let n = el; n !== null; n = n.parent) {
    const uri = n.nsDecls?.get(prefix);
    if (uri !== undefined) return uri;
  }
  return undefined;
}

function split(qname: string): [string, string] {
  const at = qname.indexOf(':');
  return at < 0 ? ['', qname] : [qname.slice(0, at), qname.slice(at + 1)];
}

export function parseXml(xml: string): DomNode {
  const doc = new DomNode(DOCUMENT, '', '');
  let cur = doc;
  let i = 0;
  const text = (s: string) => {
    if (s === '' || cur === doc) return;
    const last = cur.children[cur.children.length - 1];
    if (last !== undefined && last.kind === TEXT) last.data += s;
    else cur.append(new DomNode(TEXT, '', s));
  };
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) {
      text(decode(xml.slice(i)));
      break;
    }
    text(decode(xml.slice(i, lt)));
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt);
      cur.append(new DomNode(COMMENT, '', xml.slice(lt + 4, end)));
      i = end + 3;
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt);
      text(xml.slice(lt + 9, end));
      i = end + 3;
    } else if (xml.startsWith('<?', lt)) {
      const end = xml.indexOf('?>', lt);
      const body = xml.slice(lt + 2, end);
      const m = /^(\S+)\s*([\s\S]*)$/.exec(body)!;
      if (m[1] !== 'xml') cur.append(new DomNode(PROCESSING_INSTRUCTION, m[1]!, m[2]!));
      i = end + 2;
    } else if (xml.startsWith('</', lt)) {
      i = xml.indexOf('>', lt) + 1;
      cur = cur.parent!;
    } else {
      const tag = /^<([^\s/>]+)((?:\s+[^\s=]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(xml.slice(lt))!;
      const el = new DomNode(ELEMENT, tag[1]!, '');
      const attrs: [string, string][] = [];
      for (const a of tag[2]!.matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        const name = a[1]!;
        const value = decode(a[2] ?? a[3] ?? '');
        if (name === 'xmlns') (el.nsDecls ??= new Map()).set('', value);
        else if (name.startsWith('xmlns:')) (el.nsDecls ??= new Map()).set(name.slice(6), value);
        else attrs.push([name, value]);
      }
      cur.append(el);
      const [prefix, local] = split(el.name);
      el.prefix = prefix;
      el.localName = local;
      el.ns = lookup(el, prefix) ?? '';
      for (const [name, value] of attrs) {
        const attr = new DomNode(ATTRIBUTE, name, value);
        const [ap, al] = split(name);
        attr.prefix = ap;
        attr.localName = al;
        attr.ns = ap === '' ? '' : (lookup(el, ap) ?? '');
        el.addAttr(attr);
      }
      if (tag[3] !== '/') cur = el;
      i = lt + tag[0].length;
    }
  }
  numberTree(doc);
  return doc;
}

/** The root element of a parsed document (what parsel's Selector starts from). */
export function rootElement(doc: DomNode): DomNode {
  return doc.children.find((c) => c.kind === ELEMENT)!;
}

/** A node as scripts/xpath-oracle.py prints it. */
export function describeNode(n: DomNode): string {
  switch (n.kind) {
    case ELEMENT: {
      const id = n.attrs.find((a) => a.name === 'id');
      return n.name + (id !== undefined ? '#' + id.data : '');
    }
    case ATTRIBUTE:
      return `@${n.name}=${n.data}`;
    case TEXT:
      return JSON.stringify(n.data);
    case COMMENT:
      return `<!--${n.data}-->`;
    case PROCESSING_INSTRUCTION:
      return `<?${n.name} ${n.data}?>`;
    case NAMESPACE:
      return `xmlns:${n.name === '' ? 'None' : n.name}=${n.data}`;
    default:
      return '/';
  }
}
