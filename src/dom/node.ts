/**
 * The document tree that selectors and XPath run on.
 *
 * One class for every kind of node, on purpose: XPath evaluation touches
 * `kind`, `children`, `parent` and `name` millions of times per crawl, and a
 * single monomorphic shape keeps V8's property access inline-cached. Siblings
 * are found through `parent.children[index]` instead of linked pointers, and
 * `order` (pre-order position, attributes right after their element) makes
 * document-order sorting a number comparison.
 *
 * Why not linkedom's DOM: its parse alone was measured at about parsel's
 * whole parse+extract time (1,096 vs 1,084 pages/s), and xpath.js over it
 * 9–19× slower than lxml. See docs/dependencies.md and docs/performance.md.
 */

export const ELEMENT = 1;
export const ATTRIBUTE = 2;
export const TEXT = 3;
export const PROCESSING_INSTRUCTION = 7;
export const COMMENT = 8;
export const DOCUMENT = 9;

export type NodeKind =
  | typeof ELEMENT
  | typeof ATTRIBUTE
  | typeof TEXT
  | typeof PROCESSING_INSTRUCTION
  | typeof COMMENT
  | typeof DOCUMENT;

const NO_NODES: DomNode[] = [];
Object.freeze(NO_NODES);

export class DomNode {
  kind: NodeKind;
  /** Element or attribute: qualified name as written (lower-cased in HTML). PI: target. Otherwise ''. */
  name: string;
  /** Name without prefix. */
  localName: string;
  /** Namespace prefix, '' when none. */
  prefix: string;
  /** Namespace URI, '' when none (always '' in HTML documents, as in lxml). */
  ns: string;
  /** Text, comment and PI content; attribute value. '' for elements and documents. */
  data: string;
  parent: DomNode | null;
  children: DomNode[];
  attrs: DomNode[];
  /** Position in parent.children (or parent.attrs for attributes). */
  index: number;
  /** Document order: pre-order, attributes after their element and before its children. */
  order: number;
  /** Namespace declarations made on this element (prefix → URI; '' for the default). XML only. */
  nsDecls: Map<string, string> | null;
  /** HTML attribute written without a value (`<p hidden>`): lxml serializes it bare. */
  valueless: boolean;
  /**
   * On a tree's root only: its nodes in document order, built by XPath
   * scans (src/xpath/preorder.ts); undefined until built, null when the
   * tree's numbering does not allow it. A field and not a WeakMap, see there.
   */
  preorder: DomNode[] | null | undefined;

  constructor(kind: NodeKind, name: string, data: string) {
    this.kind = kind;
    this.name = name;
    this.localName = name;
    this.prefix = '';
    this.ns = '';
    this.data = data;
    this.parent = null;
    this.children = NO_NODES;
    this.attrs = NO_NODES;
    this.index = 0;
    this.order = 0;
    this.nsDecls = null;
    this.valueless = false;
    this.preorder = undefined;
  }

  /**
   * Appends a child; creates the child array lazily so leaves share one
   * empty array, and as `[child]`: most elements have one child, and an
   * array literal holds one slot where `[]` grown by push() holds 17.
   */
  append(child: DomNode): void {
    child.parent = this;
    if (this.children === NO_NODES) {
      child.index = 0;
      this.children = [child];
      return;
    }
    child.index = this.children.length;
    this.children.push(child);
  }

  addAttr(attr: DomNode): void {
    if (this.attrs === NO_NODES) this.attrs = [];
    attr.parent = this;
    attr.index = this.attrs.length;
    this.attrs.push(attr);
  }

  /** Value of the attribute with this qualified name, or null. */
  getAttr(name: string): string | null {
    const attrs = this.attrs;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i]!;
      if (a.name === name) return a.data;
    }
    return null;
  }

  /** The root of the tree this node belongs to (the document node when attached). */
  root(): DomNode {
    let n: DomNode = this;
    while (n.parent !== null) n = n.parent;
    return n;
  }
}

/**
 * Gives `node` a children array of exactly its length. Arrays grown by
 * push() reserve room for 17 elements and more; a parser calls this when it
 * closes an element, so that a big page's tree holds no spare slots (on a
 * 20 MB page of small elements they were ~40 % of the heap).
 */
export function fitChildren(node: DomNode): void {
  const c = node.children;
  if (c.length > 0) node.children = c.slice();
}

export function isElement(node: DomNode): boolean {
  return node.kind === ELEMENT;
}

/** XPath string-value: descendant text for elements and documents, the data otherwise. */
export function stringValue(node: DomNode): string {
  if (node.kind === ELEMENT || node.kind === DOCUMENT) {
    const children = node.children;
    if (children.length === 1 && children[0]!.kind === TEXT) return children[0]!.data;
    let out = '';
    const stack: DomNode[] = [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.kind === TEXT) out += n.data;
      else if (n.kind === ELEMENT) {
        const c = n.children;
        for (let i = c.length - 1; i >= 0; i--) stack.push(c[i]!);
      }
    }
    return out;
  }
  return node.data;
}

/** Re-numbers `order` in document order; call after building or editing a tree. */
export function numberTree(root: DomNode): void {
  let counter = 0;
  const stack: DomNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    n.order = counter++;
    const attrs = n.attrs;
    for (let i = 0; i < attrs.length; i++) attrs[i]!.order = counter++;
    const c = n.children;
    for (let i = c.length - 1; i >= 0; i--) stack.push(c[i]!);
  }
}

/**
 * What parsel does around its parser: NUL characters removed and the text
 * stripped (Python's str.strip()) before parsing, and an empty `<html>` when
 * the input holds no element. `parse` runs the tokenizer over the prepared
 * source and returns the document it built, numbered (with its nodes in
 * `preorder`) or not (`preorder` undefined: numbered here).
 */
export function parseLikeParsel(text: string, strip: (source: string) => string, parse: (source: string) => DomNode): DomNode {
  const source = strip(text.indexOf('\0') === -1 ? text : text.replaceAll('\0', ''));
  const doc = source === '' ? new DomNode(DOCUMENT, '', '') : parse(source);
  if (!doc.children.some((c) => c.kind === ELEMENT)) {
    doc.children = [];
    doc.append(new DomNode(ELEMENT, 'html', ''));
    doc.preorder = undefined;
  }
  // A parser that numbered the tree as it built it leaves its order array in `preorder`.
  if (doc.preorder === undefined) numberTree(doc);
  return doc;
}
