import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { ATTRIBUTE, COMMENT, DOCUMENT, DomNode, ELEMENT, PROCESSING_INSTRUCTION, TEXT, fitChildren, parseLikeParsel } from './node.js';
import { decodeXmlEntities } from './decode-entities.js';
import { pythonStrip } from '../python/strip.js';

/**
 * Builds an XML document tree with real namespaces, as lxml's recovering XML
 * parser does for parsel: names keep their case, `ns` holds the URI bound to
 * the prefix in scope, xmlns declarations are kept in `nsDecls` (they are not
 * attribute nodes), CDATA sections become text, and a start tag left open is
 * closed at the end. linkedom's XML mode has no namespaces at all
 * (docs/dependencies.md).
 */

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

class XmlTreeBuilder implements TokenizerCallbacks {
  readonly doc = new DomNode(DOCUMENT, '', '');
  private readonly stack: DomNode[] = [];
  /** How many elements of each name the stack holds. */
  private readonly open = new Map<string, number>();
  /**
   * The namespace bindings in scope at each open element (prefix → URI),
   * shared with the parent unless the element declares some: looking a
   * prefix up by walking the ancestors cost O(depth) per element, minutes on
   * a document nested 100,000 deep.
   */
  private readonly scopes: Array<ReadonlyMap<string, string>> = [];
  private text = '';
  private tagName = '';
  private rawAttrs: Array<[string, string]> = [];
  private attrName = '';
  private attrValue = '';

  constructor(private readonly source: string) {}

  ontext(start: number, end: number): void {
    this.text += decodeXmlEntities(this.source.slice(start, end));
  }
  ontextentity(): void {}
  onattribentity(): void {}
  oncdata(start: number, end: number, offset: number): void {
    this.text += this.source.slice(start, end - offset);
  }
  onopentagname(start: number, end: number): void {
    this.flushText();
    this.tagName = this.source.slice(start, end);
    this.rawAttrs = [];
  }
  onattribname(start: number, end: number): void {
    this.attrName = this.source.slice(start, end);
    this.attrValue = '';
  }
  onattribdata(start: number, end: number): void {
    this.attrValue += this.source.slice(start, end);
  }
  onattribend(): void {
    if (!this.rawAttrs.some(([n]) => n === this.attrName)) {
      // Attribute values are normalised: literal tabs and newlines read as spaces (XML 1.0 §3.3.3).
      this.rawAttrs.push([this.attrName, decodeXmlEntities(this.attrValue.replace(/[\t\n\r]/g, ' '))]);
    }
  }
  onopentagend(): void {
    this.startTag(false);
  }
  onselfclosingtag(): void {
    this.startTag(true);
  }
  onclosetag(start: number, end: number): void {
    this.flushText();
    const name = this.source.slice(start, end);
    // Nothing of that name open: skip the scan (stray end tags under deep nesting made it quadratic).
    if ((this.open.get(name) ?? 0) === 0) return;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      if (this.stack[i]!.name === name) {
        for (let k = i; k < this.stack.length; k++) {
          const el = this.stack[k]!;
          this.open.set(el.name, this.open.get(el.name)! - 1);
          fitChildren(el);
        }
        this.stack.length = i;
        this.scopes.length = i;
        return;
      }
    }
  }
  oncomment(start: number, end: number, offset: number): void {
    this.flushText();
    this.append(new DomNode(COMMENT, '', this.source.slice(start, end - offset)));
  }
  ondeclaration(): void {
    this.flushText();
  }
  onprocessinginstruction(start: number, end: number): void {
    this.flushText();
    const body = this.source.slice(start, end).replace(/^\?/, '').replace(/\?$/, '');
    const match = /^(\S+)\s*([\s\S]*)$/.exec(body);
    if (match === null || match[1]!.toLowerCase() === 'xml') return; // the XML declaration is not a node
    this.append(new DomNode(PROCESSING_INSTRUCTION, match[1]!, match[2]!));
  }
  onend(): void {
    this.flushText();
    for (const el of this.stack) fitChildren(el);
    fitChildren(this.doc);
  }
  isInForeignContext(): boolean {
    return true;
  }

  private append(node: DomNode): void {
    (this.stack[this.stack.length - 1] ?? this.doc).append(node);
  }

  private flushText(): void {
    if (this.text === '') return;
    const data = this.text;
    this.text = '';
    const parent = this.stack[this.stack.length - 1];
    if (parent === undefined) return; // text outside the root element is not part of the tree
    const last = parent.children[parent.children.length - 1];
    if (last !== undefined && last.kind === TEXT) last.data += data;
    else parent.append(new DomNode(TEXT, '', data));
  }

  private startTag(selfClosing: boolean): void {
    const el = new DomNode(ELEMENT, this.tagName, '');
    const parent = this.stack[this.stack.length - 1] ?? null;
    for (const [name, value] of this.rawAttrs) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) {
        el.nsDecls ??= new Map();
        el.nsDecls.set(name === 'xmlns' ? '' : name.slice(6), value);
      }
    }
    let scope = this.scopes[this.scopes.length - 1] ?? NO_BINDINGS;
    if (el.nsDecls !== null) {
      const own = new Map(scope);
      for (const [prefix, uri] of el.nsDecls) own.set(prefix, uri);
      scope = own;
    }
    setQualifiedName(el, this.tagName, true, scope);
    for (const [name, value] of this.rawAttrs) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
      const attr = new DomNode(ATTRIBUTE, name, value);
      el.addAttr(attr);
      setQualifiedName(attr, name, false, scope);
    }
    if (el.attrs.length > 0) el.attrs = el.attrs.slice(); // no spare slots (see fitChildren)
    (parent ?? this.doc).append(el);
    if (!selfClosing) {
      this.stack.push(el);
      this.open.set(el.name, (this.open.get(el.name) ?? 0) + 1);
      this.scopes.push(scope);
    }
  }
}

const NO_BINDINGS: ReadonlyMap<string, string> = new Map();

function setQualifiedName(node: DomNode, qname: string, isElement: boolean, scope: ReadonlyMap<string, string>): void {
  const colon = qname.indexOf(':');
  const prefix = colon === -1 ? '' : qname.slice(0, colon);
  node.prefix = prefix;
  node.localName = colon === -1 ? qname : qname.slice(colon + 1);
  if (prefix === '' && !isElement) return; // unprefixed attributes are in no namespace
  if (prefix === 'xml') {
    node.ns = XML_NS;
    return;
  }
  const uri = scope.get(prefix);
  if (uri !== undefined) node.ns = uri;
}

/** Parses XML as parsel does (text stripped first; an empty `<html>` when there is no root element). */
export function parseXml(text: string): DomNode {
  return parseLikeParsel(text, pythonStrip, (source) => {
    const builder = new XmlTreeBuilder(source);
    const tokenizer = new Tokenizer({ xmlMode: true, decodeEntities: false }, builder);
    tokenizer.write(source);
    tokenizer.end();
    return builder.doc;
  });
}
