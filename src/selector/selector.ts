import { inspect } from 'node:util';
import { ATTRIBUTE, DOCUMENT, ELEMENT, TEXT, numberTree, type DomNode } from '../dom/node.js';
import { parseHtml } from '../dom/parse-html.js';
import { parseXml } from '../dom/parse-xml.js';
import { serializeHtml } from '../dom/serialize-html.js';
import { serializeXml } from '../dom/serialize-xml.js';
import { evaluateXPath, pythonFloatRepr, type XPathVariables } from '../xpath/index.js';
import { cssToXPath } from '../css/index.js';
import { extractRegex } from './extract-regex.js';
import { pythonRepr, shorten } from '../python/str-repr.js';
import { SelectorList, itemsOf } from './selector-list.js';
import {
  BadArgumentError,
  checkDefault,
  checkNamespaces,
  checkOptionalBoolean,
  checkRegex,
  checkString,
  checkXPathArguments,
} from './bad-argument-error.js';

export type SelectorType = 'html' | 'xml';
/** What a selector wraps: a node of the tree, or a string, number or boolean an XPath expression returned. */
export type SelectorRoot = DomNode | string | number | boolean;

export interface SelectorOptions {
  /** Markup to parse. */
  text?: string;
  /** 'html' (default) or 'xml'. */
  type?: SelectorType;
  /** An already parsed node or an XPath value, instead of `text`. */
  root?: SelectorRoot;
  /** Extra namespace prefixes for XPath, on top of `re` and `set`. */
  namespaces?: Record<string, string>;
}

export interface XPathOptions {
  /** Prefixes for this query only, on top of the selector's. */
  namespaces?: Record<string, string>;
}

/** The prefixes parsel registers on every selector. */
const DEFAULT_NAMESPACES: Record<string, string> = {
  re: 'http://exslt.org/regular-expressions',
  set: 'http://exslt.org/sets',
};

const SELECTOR_BRAND = Symbol.for('seine.Selector');

/** True for a seine Selector, also one created by another loaded copy of seine. */
export function isSelector(value: unknown): value is Selector {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SELECTOR_BRAND] === true;
}

function isDomNode(value: unknown): value is DomNode {
  return typeof value === 'object' && value !== null && 'kind' in value && 'children' in value;
}

/**
 * A node of a parsed document (or a value an XPath expression returned),
 * queried with CSS or XPath as in parsel: `css()` and `xpath()` return a
 * SelectorList, `get()` the first result as a string or null.
 */
export class Selector {
  declare readonly [SELECTOR_BRAND]: true;
  readonly type: SelectorType;
  readonly root: SelectorRoot;
  /** The query that selected this node; null for a selector made from text. */
  readonly query: string | null;
  /** Shared with the selectors this one created until either registers a prefix (copy on write, so each behaves as parsel's own copy). */
  private ownNamespaces: Record<string, string>;
  private namespacesShared: boolean;

  constructor(options: SelectorOptions = {}, query: string | null = null) {
    if (typeof options !== 'object' || options === null) {
      throw new BadArgumentError('new Selector()', 'its options', "an object such as { text: '<html>…' }", options);
    }
    const type = options.type ?? 'html';
    if (type !== 'html' && type !== 'xml') throw new BadArgumentError('new Selector()', 'type', "'html' or 'xml'", type);
    this.type = type;
    const root: unknown = options.root;
    if (root !== undefined) {
      if (typeof root === 'object' ? !isDomNode(root) : typeof root !== 'string' && typeof root !== 'number' && typeof root !== 'boolean') {
        throw new BadArgumentError('new Selector()', 'root', 'a parsed node (or a string, number or boolean an XPath returned)', root);
      }
      this.root = root as SelectorRoot;
    } else if (typeof options.text === 'string') {
      const doc = this.type === 'xml' ? parseXml(options.text) : parseHtml(options.text);
      this.root = doc.children.find((c) => c.kind === ELEMENT)!;
    } else if (options.text !== undefined) {
      throw new BadArgumentError('new Selector()', 'text', 'a string (the markup to parse)', options.text);
    } else {
      throw new BadArgumentError('new Selector()', 'text (markup to parse) or root (a parsed node)', "an option, as in new Selector({ text: '<html>…' })", options, 'neither');
    }
    if (options.namespaces !== undefined) checkNamespaces('new Selector()', options.namespaces);
    this.query = query;
    this.ownNamespaces = options.namespaces === undefined ? DEFAULT_NAMESPACES : { ...DEFAULT_NAMESPACES, ...options.namespaces };
    this.namespacesShared = true;
  }

  /** The namespace prefixes XPath queries of this selector resolve. */
  get namespaces(): Readonly<Record<string, string>> {
    return this.ownNamespaces;
  }

  /** Applies an XPath 1.0 expression; `$name` variables come from `variables`. */
  xpath(query: string, variables?: XPathVariables, options?: XPathOptions): SelectorList {
    checkXPathArguments('Selector.xpath()', query, variables, options);
    const root = this.root;
    // parsel: strings, numbers and attribute values have no tree to query.
    if (!isDomNode(root) || root.kind === TEXT || root.kind === ATTRIBUTE) return new SelectorList();
    const namespaces = options?.namespaces === undefined ? this.ownNamespaces : { ...this.ownNamespaces, ...options.namespaces };
    const value = evaluateXPath(query, root, { namespaces, variables });
    const list = new SelectorList();
    const items = itemsOf(list);
    if (Array.isArray(value)) {
      // lxml's Python layer leaves document nodes out of results (`/`, `..` from the root).
      for (let i = 0; i < value.length; i++) {
        const node = value[i]!;
        if (node.kind !== DOCUMENT) items.push(this.child(node, query));
      }
    } else {
      items.push(this.child(value, query));
    }
    return list;
  }

  /** Applies a CSS selector, translated to XPath as parsel translates it (`::text`, `::attr(name)` included). */
  css(query: string): SelectorList {
    checkString('Selector.css()', 'the query', query);
    return this.xpath(cssToXPath(query, this.type));
  }

  private child(root: SelectorRoot, query: string): Selector {
    const child = new Selector({ root, type: this.type }, query);
    child.ownNamespaces = this.ownNamespaces;
    this.namespacesShared = true;
    return child;
  }

  /** The result as a string: markup for elements, the text for text and attributes. `def` is ignored here, as in parsel. */
  get(def?: string): string;
  get(def?: unknown): string {
    if (def !== undefined) checkDefault('Selector.get()', def);
    const root = this.root;
    if (typeof root === 'string') return root;
    if (typeof root === 'number') return pythonFloatRepr(root);
    if (typeof root === 'boolean') return root ? '1' : '0';
    if (root.kind === ELEMENT || root.kind === DOCUMENT) {
      return this.type === 'xml' ? serializeXml(root) : serializeHtml(root);
    }
    if (root.kind === TEXT || root.kind === ATTRIBUTE) return root.data;
    return this.type === 'xml' ? serializeXml(root) : serializeHtml(root);
  }

  getall(): string[] {
    return [this.get()];
  }

  /** parsel's `extract()`. */
  extract(): string {
    return this.get();
  }

  re(regex: RegExp | string, replaceEntities = true): string[] {
    checkRegex('Selector.re()', regex);
    checkOptionalBoolean('Selector.re()', 'replaceEntities', replaceEntities);
    return extractRegex(regex, this.get(), replaceEntities);
  }

  reFirst(regex: RegExp | string): string | null;
  reFirst(regex: RegExp | string, def: string, replaceEntities?: boolean): string;
  reFirst(regex: RegExp | string, def: string | null = null, replaceEntities = true): string | null {
    checkRegex('Selector.reFirst()', regex);
    checkDefault('Selector.reFirst()', def);
    return this.re(regex, replaceEntities)[0] ?? def;
  }

  /** The element's attributes (an empty object for anything else). */
  get attrib(): Record<string, string> {
    const root = this.root;
    const out: Record<string, string> = {};
    if (isDomNode(root) && root.kind === ELEMENT) for (const a of root.attrs) out[attributeKey(a)] = a.data;
    return out;
  }

  registerNamespace(prefix: string, uri: string): void {
    checkString('Selector.registerNamespace()', 'the prefix', prefix);
    checkString('Selector.registerNamespace()', 'the URI', uri);
    if (this.namespacesShared) {
      this.ownNamespaces = { ...this.ownNamespaces };
      this.namespacesShared = false;
    }
    this.ownNamespaces[prefix] = uri;
  }

  /** Strips namespaces from every element and attribute below this one, so plain names match. */
  removeNamespaces(): void {
    const root = this.root;
    if (!isDomNode(root)) return;
    const stack: DomNode[] = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.kind !== ELEMENT) continue;
      if (node.ns !== '' || node.prefix !== '') {
        node.ns = '';
        node.prefix = '';
        node.name = node.localName;
      }
      node.nsDecls = null;
      // parsel pops each namespaced attribute and sets its local name: an attribute of that
      // name already there takes the value in place, otherwise it is added at the end.
      if (node.attrs.some((a) => a.ns !== '' || a.prefix !== '')) {
        const attrs = node.attrs.filter((a) => a.ns === '' && a.prefix === '');
        for (const a of node.attrs) {
          if (a.ns === '' && a.prefix === '') continue;
          const existing = attrs.find((b) => b.name === a.localName);
          if (existing !== undefined) {
            existing.data = a.data;
          } else {
            a.ns = '';
            a.prefix = '';
            a.name = a.localName;
            attrs.push(a);
          }
        }
        attrs.forEach((a, i) => (a.index = i));
        node.attrs = attrs;
      }
      for (const c of node.children) stack.push(c);
    }
    numberTree(root.root());
  }

  /** Removes this node from its document (parsel's `drop()`). */
  drop(): void {
    const root = this.root;
    if (!isDomNode(root) || root.parent === null || root.kind === ATTRIBUTE) {
      throw new TypeError('drop() needs an element or text node that has a parent');
    }
    const parent = root.parent;
    parent.children.splice(root.index, 1);
    parent.children.forEach((c, i) => (c.index = i));
    root.parent = null;
    numberTree(parent.root());
  }

  /** parsel's repr, with `query=` as seine names it: `<Selector query='//title' data='<title>Quotes</title>'>`. */
  toString(): string {
    return `<Selector query=${this.query === null ? 'None' : pythonRepr(this.query)} data=${pythonRepr(shorten(this.get(), 40))}>`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}
// A brand on the prototype rather than instanceof: a project's own copy of seine and the CLI's may both be loaded.
Object.defineProperty(Selector.prototype, SELECTOR_BRAND, { value: true });

/** Attribute keys as lxml gives them: `{uri}local` for namespaced attributes. */
function attributeKey(attr: DomNode): string {
  return attr.ns === '' ? attr.name : `{${attr.ns}}${attr.localName}`;
}
