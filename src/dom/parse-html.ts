import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { ATTRIBUTE, COMMENT, DOCUMENT, DomNode, ELEMENT, PROCESSING_INSTRUCTION, TEXT, fitChildren, parseLikeParsel } from './node.js';
import { decodeHtmlAttribute, decodeHtmlText } from './decode-entities.js';
import { isValidAttributeName, readBadAttribute } from './bad-attribute-names.js';
import { dropNonXmlChars, hasNonXmlChars } from './xml-chars.js';
import { CLOSED_BY, RAW_TEXT_ELEMENTS, VOID_ELEMENTS } from './html-rules.generated.js';
import { BOOLEAN_ATTRIBUTES } from './html-vocabulary.js';
import { pythonStrip } from '../python/strip.js';
import { lexHtml } from './html-lexer.js';

/**
 * Builds an HTML document tree that matches what lxml's HTML parser (used by
 * parsel) builds, broken markup included: implied html/head/body, implied
 * `<p>` around stray text, start tags that close open elements, end tags
 * that close only elements of lower priority, HTML 4 entity rules.
 *
 * htmlparser2's Tokenizer does the lexing (docs/dependencies.md: htmlparser2
 * parses ~4× faster than linkedom, whose parse alone costs about parsel's
 * whole parse+extract budget); the tree rules are libxml2's, observed by
 * scripts/derive-libxml2-html-rules.py.
 *
 * Known difference: CDATA sections in HTML, which libxml2 mangles, are kept
 * as comments here.
 */

/** libxml2's end-tag priorities: a stray end tag never closes an element of higher priority. */
const END_PRIORITY: Record<string, number> = {
  div: 150, td: 160, th: 160, tr: 170, thead: 180, tbody: 180, tfoot: 180, table: 190, head: 200, body: 200, html: 220,
};
const endPriority = (name: string): number => END_PRIORITY[name] ?? 100;

/** Elements that go into an implied <head> when they come before any body content. */
const HEAD_ELEMENTS = new Set(['script', 'style', 'meta', 'link', 'title', 'base']);
const NOT_BODY_IMPLYING = new Set(['noframes', 'frame', 'frameset']);
const WHITESPACE_ONLY = /^[ \t\n\r\f]*$/;
/** Documents from this many characters on are built compactly (see HtmlTreeBuilder.compact). */
const COMPACT_FROM = 1_000_000;
/** Shared by every tag without attributes; never written to. */
const NO_ATTRIBUTES: DomNode[] = [];
const QUOTES = ['', '', "'", '"']; // by htmlparser2's QuoteType

class HtmlTreeBuilder implements TokenizerCallbacks {
  readonly doc = new DomNode(DOCUMENT, '', '');
  private readonly stack: DomNode[] = [];
  /** How many elements of each name the stack holds. */
  private readonly open = new Map<string, number>();
  private sawHead = false;
  private sawBody = false;
  /**
   * A DOCTYPE was seen (anywhere). libxml2 then puts a DTD node first in the
   * document, and an element that starts when nothing is open (content
   * after </html>) becomes a second top-level <html> instead of going into
   * the first (SAX2's startElement adds it to the document's first child).
   */
  private sawDoctype = false;
  /** Discarded html/head/body start tags whose end tags must be ignored too. */
  private discarded = 0;
  private text = '';
  private tagName = '';
  /**
   * The open tag's attributes, the first `attrCount` of this reused array;
   * the element gets a copy of exactly that length. (A fresh `[]` per tag,
   * grown by push(), reserved 17 slots for its one or two attributes.)
   */
  private readonly attrs: DomNode[] = [];
  private attrCount = 0;
  /**
   * Tag and attribute names as written → as stored (lower-cased, prefix
   * dropped). Every element named `div` then shares one string instead of
   * keeping its own copy: on a 20 MB page that is ~2 million strings fewer
   * for the garbage collector to copy and keep.
   */
  private readonly names = new Map<string, string>();
  /**
   * Big documents only (COMPACT_FROM characters and up): interned names and
   * exact-length arrays cost ~3 % of the parse of a 13 KB page, whose tree
   * lives for one callback, and save a third of the heap of a 20 MB one.
   */
  private readonly compact: boolean;
  /** The page holds a character libxml2 drops from text (xml-chars.ts); almost none do. */
  readonly controls: boolean;
  private attrName = '';
  private attrValue = '';
  /** A start tag (and maybe an attribute) still open when the input ends: libxml2 keeps it. */
  private tagOpen = false;
  private attrOpen = false;
  private attrNameStart = 0;
  private attrNameEnd = 0;
  tokenizer: Tokenizer | undefined;
  /**
   * The nodes in document order, numbered as they are added: each new node
   * goes last in document order as long as it is appended below the open
   * elements (or the document), which is all a page's parse does but for
   * libxml2's quirks after `</html>` and attributes merged into `<html>`,
   * which set `inOrder` false (the tree is then numbered afterwards, as
   * before). Handed to XPath as the document's order array (`preorder`):
   * numbering and that array were two more walks over every node
   * (docs/performance.md, issue 26).
   */
  private readonly nodes: DomNode[] = [this.doc];
  private inOrder = true;

  constructor(private readonly source: string) {
    this.compact = source.length >= COMPACT_FROM;
    this.controls = hasNonXmlChars(source);
  }

  /** Text without the characters libxml2 drops; looked for only when the page has any (one scan of the page, not one per node). */
  private clean(text: string): string {
    return this.controls ? dropNonXmlChars(text) : text;
  }

  // --- tokenizer callbacks -------------------------------------------------
  ontext(start: number, end: number): void {
    this.text += this.source.slice(start, end);
  }
  ontextentity(): void {}
  onattribentity(): void {}
  onopentagname(start: number, end: number): void {
    this.flushText();
    this.tagName = this.compact ? this.name(start, end, true) : localPart(this.source.slice(start, end).toLowerCase());
    this.attrCount = 0;
    this.tagOpen = true;
  }
  onattribname(start: number, end: number): void {
    this.attrName = this.compact ? this.name(start, end, false) : this.source.slice(start, end).toLowerCase();
    this.attrValue = '';
    this.attrOpen = true;
    this.attrNameStart = start;
    this.attrNameEnd = end;
  }
  onattribdata(start: number, end: number): void {
    this.attrValue += this.source.slice(start, end);
  }
  onattribend(quote: number, _end: number): void {
    this.attrOpen = false;
    const source = this.source;
    // libxml2 skips from a `/` that does not end the tag to the next blank: `v/w` is `v`.
    if (source.charCodeAt(this.attrNameStart - 1) === 0x2f /* / */) return;
    if (!isValidAttributeName(source, this.attrNameStart, this.attrNameEnd)) {
      const rawName = source.slice(this.attrNameStart, this.attrNameEnd);
      const value = quote === 0 ? null : this.attrValue;
      for (const a of readBadAttribute(rawName, value, QUOTES[quote] ?? '')) this.addAttribute(a.name.toLowerCase(), a.value);
      return;
    }
    this.addAttribute(this.attrName, quote === 0 ? null : this.attrValue);
  }
  private addAttribute(name: string, rawValue: string | null): void {
    const attrs = this.attrs;
    for (let i = 0; i < this.attrCount; i++) if (attrs[i]!.name === name) return; // the first of duplicated attributes wins
    const valueless = rawValue === null;
    const value = valueless ? (BOOLEAN_ATTRIBUTES.has(name) ? name : '') : decodeHtmlAttribute(rawValue);
    const attr = new DomNode(ATTRIBUTE, name, value);
    attr.valueless = valueless;
    attrs[this.attrCount++] = attr;
  }
  onopentagend(): void {
    this.tagOpen = false;
    this.startTag(this.tagName, false);
  }
  onselfclosingtag(): void {
    this.tagOpen = false;
    this.startTag(this.tagName, true);
  }
  onclosetag(start: number, end: number): void {
    this.flushText();
    // Most end tags close the innermost open element, written as stored: take its name without slicing the source.
    const top = this.stack[this.stack.length - 1];
    if (top !== undefined && spells(this.source, start, end, top.name)) this.endTag(top.name);
    else this.endTag(this.compact ? this.name(start, end, true) : localPart(this.source.slice(start, end).toLowerCase()));
  }
  oncomment(start: number, end: number, offset: number): void {
    if (this.source.charCodeAt(start) === 0x3f /* ? */ && this.source.charCodeAt(start - 1) === 0x3c /* < */) {
      this.onprocessinginstruction(start, end); // htmlparser2 reads `<?…>` as a bogus comment; libxml2 as a PI
      return;
    }
    this.flushText();
    const isDashComment = this.source.startsWith('<!--', start - 4);
    if (isDashComment && offset === 0 && !/--!?>$/.test(this.source.slice(0, end + 1))) {
      return; // a comment that never closes swallows the rest of the document, and libxml2 drops it
    }
    this.appendNode(new DomNode(COMMENT, '', this.clean(this.source.slice(start, end - offset))));
  }
  oncdata(start: number, end: number, offset: number): void {
    this.flushText();
    this.appendNode(new DomNode(COMMENT, '', `[CDATA[${this.source.slice(start, end - offset)}]]`));
  }
  ondeclaration(start: number): void {
    this.flushText(); // <!DOCTYPE …> is not a node in lxml's tree
    if (/^doctype/i.test(this.source.slice(start, start + 7))) this.sawDoctype = true;
  }
  onprocessinginstruction(start: number, end: number): void {
    this.flushText();
    const body = this.clean(this.source.slice(start, end)).replace(/^\?/, '');
    const match = /^([^\s?>]*)\s*([\s\S]*)$/.exec(body)!;
    this.appendNode(new DomNode(PROCESSING_INSTRUCTION, match[1]!, match[2]!));
  }
  onend(): void {
    if (this.tagOpen) {
      // An attribute value whose quote never closes takes in the rest of the document, as in libxml2.
      if (this.attrOpen) {
        const rest = /^\s*=\s*["']?([\s\S]*)$/.exec(this.source.slice(this.attrNameEnd));
        this.attrValue = '';
        if (rest !== null) this.attrValue = rest[1]!;
        this.onattribend(rest === null ? 0 : 3, this.source.length);
      }
      this.tagOpen = false;
      this.startTag(this.tagName, false);
    }
    this.flushText();
    this.closeFrom(0);
    fitChildren(this.doc);
    if (this.inOrder) this.doc.preorder = this.nodes;
  }
  /**
   * htmlparser2 lexes title, textarea, xmp, iframe, noembed, noframes and
   * plaintext as raw text (HTML5); libxml2 parses markup inside them and keeps
   * only script and style raw. The tokenizer asks this before it looks at a
   * tag name, so answering "foreign" for every tag that does not start with
   * `s` leaves just script and style (and s-words that are not them) special.
   */
  isInForeignContext(): boolean {
    const at = (this.tokenizer as unknown as { index: number } | undefined)?.index ?? -1;
    return (this.source.charCodeAt(at) | 0x20) !== 0x73;
  }

  /** A tag name (lower-cased, prefix dropped) or attribute name (lower-cased), one string per distinct spelling. */
  private name(start: number, end: number, tag: boolean): string {
    const raw = this.source.slice(start, end);
    const key = tag ? raw : '@' + raw;
    let name = this.names.get(key);
    if (name === undefined) {
      name = tag ? localPart(raw.toLowerCase()) : raw.toLowerCase();
      this.names.set(key, name);
    }
    return name;
  }

  // --- tree rules ------------------------------------------------------------
  private top(): DomNode | undefined {
    return this.stack[this.stack.length - 1];
  }

  private appendNode(node: DomNode): void {
    const parent = this.top() ?? this.doc;
    // The length is tested first: reading index -1 of an empty array is a slow, generic property lookup.
    const siblings = parent.children;
    if (node.kind === TEXT && siblings.length > 0) {
      const last = siblings[siblings.length - 1]!;
      if (last.kind === TEXT) {
        last.data += node.data;
        return;
      }
    }
    parent.append(node);
    node.order = this.nodes.length;
    this.nodes.push(node);
  }

  /** Closes the open elements from `i` up. */
  private closeFrom(i: number): void {
    const stack = this.stack;
    const open = this.open;
    // pop() rather than `stack.length = i`: setting the length is a call into the runtime (~1.4 % of a listing page's parse).
    while (stack.length > i) {
      const el = stack.pop()!;
      open.set(el.name, open.get(el.name)! - 1);
      if (this.compact) fitChildren(el);
    }
  }

  private push(name: string, attrs: DomNode[]): DomNode {
    const el = new DomNode(ELEMENT, name, '');
    if (attrs.length > 0) {
      el.attrs = attrs;
      for (let i = 0; i < attrs.length; i++) {
        const a = attrs[i]!;
        a.parent = el;
        a.index = i;
      }
    }
    const top = this.top();
    const parent = top ?? this.rootContainer();
    // Below the open elements, or last in the document: last in document order too.
    if (top === undefined && parent !== this.doc && parent !== this.doc.children[this.doc.children.length - 1]) this.inOrder = false;
    parent.append(el);
    const nodes = this.nodes;
    el.order = nodes.length;
    nodes.push(el);
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i]!;
      a.order = nodes.length;
      nodes.push(a);
    }
    this.stack.push(el);
    this.open.set(name, (this.open.get(name) ?? 0) + 1);
    if (name === 'head') this.sawHead = true;
    else if (name === 'body') this.sawBody = true;
    return el;
  }

  /** Where a new top-level element goes: the document's first child if that is an element (as libxml2 does after </html>), else the document. */
  private rootContainer(): DomNode {
    const first = this.doc.children[0];
    return first !== undefined && first.kind === ELEMENT && !this.sawDoctype ? first : this.doc;
  }

  private autoClose(name: string): void {
    for (let top = this.top(); top !== undefined && CLOSED_BY.get(top.name)?.has(name) === true; top = this.top()) {
      const closed = this.stack.pop()!;
      this.open.set(closed.name, this.open.get(closed.name)! - 1);
      if (this.compact) fitChildren(closed);
    }
  }

  private checkImplied(name: string): void {
    if (name === 'html') return;
    if (this.stack.length === 0) this.push('html', []);
    if (name === 'body' || name === 'head') return;
    if (this.stack.length <= 1 && HEAD_ELEMENTS.has(name)) {
      if (!this.sawHead) this.push('head', []);
      return;
    }
    if (NOT_BODY_IMPLYING.has(name) || this.sawBody) return;
    for (const open of this.stack) if (open.name === 'body' || open.name === 'head') return;
    this.push('body', []);
  }

  private startTag(name: string, selfClosing: boolean): void {
    const attrs = this.attrCount === 0 ? NO_ATTRIBUTES : this.attrs.slice(0, this.attrCount);
    this.attrCount = 0;
    this.autoClose(name);
    this.checkImplied(name);
    if (this.isMisplaced(name)) {
      this.discarded++;
      if (name === 'html') this.mergeAttributes(this.stack[0], attrs);
      return;
    }
    const el = this.push(name, attrs);
    if (selfClosing || VOID_ELEMENTS.has(name)) {
      this.stack.pop();
      this.open.set(name, this.open.get(name)! - 1);
    }
    void el;
  }

  private isMisplaced(name: string): boolean {
    if (name === 'html') return this.stack.length > 0;
    if (name === 'head') return this.stack.length !== 1;
    if (name === 'body') return this.stack.some((open) => open.name === 'body');
    return false;
  }

  private mergeAttributes(target: DomNode | undefined, attrs: DomNode[]): void {
    if (target === undefined) return;
    for (const a of attrs) {
      if (target.getAttr(a.name) === null) {
        target.addAttr(a);
        this.inOrder = false;
      }
    }
  }

  private endTag(name: string): void {
    if (this.discarded > 0 && (name === 'html' || name === 'body' || name === 'head')) {
      this.discarded--;
      return;
    }
    const last = this.stack.length - 1;
    if (last >= 0 && this.stack[last]!.name === name) {
      this.closeFrom(last); // the usual case: it closes the innermost element, whatever the priorities
      return;
    }
    // No open element of that name: the scan below could only end without a match. Skipping it
    // keeps `<span>` × 100,000 then `</div>` × 100,000 linear (the scan made it quadratic: minutes).
    if ((this.open.get(name) ?? 0) === 0) return;
    const priority = endPriority(name);
    let i = this.stack.length - 1;
    for (; i >= 0; i--) {
      const open = this.stack[i]!.name;
      if (open === name) break;
      if (endPriority(open) > priority) return;
    }
    if (i < 0) return; // an end tag with no open element is ignored
    this.closeFrom(i);
  }

  private flushText(): void {
    if (this.text === '') return;
    const raw = this.clean(this.text);
    this.text = '';
    const top0 = this.top();
    const data = top0 !== undefined && RAW_TEXT_ELEMENTS.has(top0.name) ? raw : decodeHtmlText(raw);
    if (data === '') return;
    if (WHITESPACE_ONLY.test(data)) {
      if (this.stack.length > 0) this.appendNode(new DomNode(TEXT, '', data));
      return; // whitespace outside any element is ignorable
    }
    const top = this.top();
    if (top === undefined || top.name === 'html' || top.name === 'head') {
      // libxml2 wraps character data that has no element to go into in a <p>.
      this.autoClose('p');
      this.checkImplied('p');
      this.push('p', []);
    }
    this.appendNode(new DomNode(TEXT, '', data));
  }
}

/** `source[start, end)` is `name` exactly, without a colon (which localPart would cut at). */
function spells(source: string, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 0x3a /* : */ || source.charCodeAt(start + i) !== c) return false;
  }
  return true;
}

/** `foo:bar` → `bar`: libxml2's HTML parser drops element prefixes. */
function localPart(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/**
 * Parses HTML into a document node whose single element child is `<html>`,
 * as parsel does: input stripped of surrounding whitespace and NUL
 * characters, and an empty `<html>` when nothing else is left.
 */
export function parseHtml(text: string): DomNode {
  return parseLikeParsel(text, pythonStrip, (source) => {
    const fast = new HtmlTreeBuilder(source);
    // html-lexer.ts covers the markup pages are made of; it hands anything else back, and the page is lexed again here.
    if (!fast.controls && lexHtml(source, fast)) return fast.doc;
    const builder = new HtmlTreeBuilder(source);
    const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: false, recognizeSelfClosing: true }, builder);
    builder.tokenizer = tokenizer;
    tokenizer.write(source);
    tokenizer.end();
    return builder.doc;
  });
}
