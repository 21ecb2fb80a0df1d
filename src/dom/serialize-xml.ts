import { COMMENT, DOCUMENT, ELEMENT, PROCESSING_INSTRUCTION, TEXT, type DomNode } from './node.js';

/**
 * Serializes a node as lxml's `tostring(method='xml', with_tail=False)` does.
 * A sub-element carries every namespace declaration in scope, as lxml copies
 * them: first those its own name and attributes use, then the ancestors'
 * from the nearest up (observed with lxml 4.9).
 */

function escapeText(text: string): string {
  if (!/[&<>\r]/.test(text)) return text;
  return text.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

const ATTR_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' };
function escapeAttr(value: string): string {
  return value.replace(/[&<>"\n\r\t]/g, (c) => ATTR_ESCAPES[c]!);
}

function declaration(prefix: string, uri: string): string {
  return prefix === '' ? ` xmlns="${escapeAttr(uri)}"` : ` xmlns:${prefix}="${escapeAttr(uri)}"`;
}

/** Looks up the URI a prefix is bound to at `node`. */
function inScope(node: DomNode, prefix: string): string | undefined {
  for (let n: DomNode | null = node; n !== null; n = n.parent) {
    const uri = n.nsDecls?.get(prefix);
    if (uri !== undefined) return uri;
  }
  return undefined;
}

function inheritedDeclarations(el: DomNode): string {
  const done = new Set<string>(el.nsDecls?.keys() ?? []);
  let out = '';
  const add = (prefix: string, uri: string | undefined): void => {
    if (uri === undefined || done.has(prefix)) return;
    done.add(prefix);
    out += declaration(prefix, uri);
  };
  if (el.ns !== '') add(el.prefix, inScope(el, el.prefix));
  for (const a of el.attrs) if (a.ns !== '') add(a.prefix, inScope(el, a.prefix));
  for (let n = el.parent; n !== null; n = n.parent) {
    if (n.nsDecls !== null) for (const [prefix, uri] of n.nsDecls) add(prefix, uri);
  }
  return out;
}

function writeLeaf(node: DomNode): string {
  switch (node.kind) {
    case TEXT:
      return escapeText(node.data);
    case COMMENT:
      return `<!--${node.data}-->`;
    case PROCESSING_INSTRUCTION:
      return node.data === '' ? `<?${node.name}?>` : `<?${node.name} ${node.data}?>`;
    default:
      return node.data;
  }
}

function startTag(node: DomNode, top: boolean): string {
  let out = '<' + node.name;
  if (node.nsDecls !== null) for (const [prefix, uri] of node.nsDecls) out += declaration(prefix, uri);
  if (top) out += inheritedDeclarations(node);
  for (const a of node.attrs) out += ` ${a.name}="${escapeAttr(a.data)}"`;
  return out;
}

/** Depth-first with an explicit stack, as serialize-html.ts: deep documents must not overflow the call stack. */
function write(root: DomNode): string {
  if (root.kind !== ELEMENT && root.kind !== DOCUMENT) return writeLeaf(root);
  let out = '';
  const open: DomNode[] = [];
  const next: number[] = [];
  let node = root;
  for (;;) {
    if (node.kind === ELEMENT) {
      out += startTag(node, node === root);
      if (node.children.length === 0) {
        out += '/>';
        if (open.length === 0) return out;
      } else {
        out += '>';
        open.push(node);
        next.push(0);
      }
    } else {
      open.push(node);
      next.push(0);
    }
    let entered = false;
    while (open.length > 0) {
      const top = open.length - 1;
      const parent = open[top]!;
      const children = parent.children;
      let i = next[top]!;
      while (i < children.length) {
        const child = children[i++]!;
        if (child.kind === ELEMENT) {
          next[top] = i;
          node = child;
          entered = true;
          break;
        }
        out += writeLeaf(child);
      }
      if (entered) break;
      open.pop();
      next.pop();
      if (parent.kind === ELEMENT) out += '</' + parent.name + '>';
    }
    if (!entered) return out;
  }
}

export function serializeXml(node: DomNode): string {
  return write(node);
}
