import { COMMENT, DOCUMENT, ELEMENT, PROCESSING_INSTRUCTION, TEXT, type DomNode } from './node.js';
import { NO_END_TAG_WHEN_EMPTY } from './html-rules.generated.js';
import { dropC0Controls } from './xml-chars.js';
import { BOOLEAN_ATTRIBUTES } from './html-vocabulary.js';

/**
 * Serializes a node as lxml's `tostring(method='html', with_tail=False)` does
 * (libxml2's HTML serializer), which is what parsel's `get()` returns:
 * void elements and an empty `<li>` without end tags, boolean attributes
 * bare, C0 controls left out of attribute values, URI attributes
 * %-escaped, quotes chosen by content, script/style content raw.
 */

const RAW_CONTENT = new Set(['script', 'style']);
/** Characters libxml2's xmlURIEscapeStr keeps as they are, besides ASCII letters and digits. */
const URI_SAFE = new Set("-_.!~*'()@/:=?;#%&,+<>");
const utf8 = new TextEncoder();

export function escapeHtmlText(text: string): string {
  if (!/[&<>]/.test(text)) return text;
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** libxml2's xmlBufWriteQuotedString: double quotes unless the value has one. */
function quote(value: string): string {
  if (value.indexOf('"') === -1) return `"${value}"`;
  if (value.indexOf("'") === -1) return `'${value}'`;
  return `"${value.replaceAll('"', '&quot;')}"`;
}

function uriEscape(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || URI_SAFE.has(ch)) {
      out += ch;
    } else {
      for (const byte of utf8.encode(ch)) out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  return out;
}

function isUriAttribute(attr: DomNode, element: DomNode): boolean {
  const name = attr.name;
  return name === 'href' || name === 'action' || name === 'src' || (name === 'name' && element.name === 'a');
}

function writeAttributes(el: DomNode): string {
  let out = '';
  for (const attr of el.attrs) {
    out += ' ' + attr.name;
    if (attr.valueless || BOOLEAN_ATTRIBUTES.has(attr.name)) continue;
    const escaped = escapeHtmlText(dropC0Controls(attr.data));
    out += '=' + quote(isUriAttribute(attr, el) ? uriEscape(escaped.replace(/^[ \t\n\r]+/, '')) : escaped);
  }
  return out;
}

function writeLeaf(node: DomNode, rawText: boolean): string {
  switch (node.kind) {
    case TEXT:
      return rawText ? node.data : escapeHtmlText(node.data);
    case COMMENT:
      return `<!--${node.data}-->`;
    case PROCESSING_INSTRUCTION:
      return `<?${node.name} ${node.data}>`;
    default:
      return node.data;
  }
}

/**
 * Depth-first with an explicit stack (an element and the index of its next
 * child), not recursion: a page nested 100,000 elements deep must serialize
 * rather than overflow the call stack. One string is appended to
 * throughout, which is also what the recursive version's concatenations
 * amounted to.
 */
function write(root: DomNode): string {
  if (root.kind !== ELEMENT && root.kind !== DOCUMENT) return writeLeaf(root, false);
  let out = '';
  const open: DomNode[] = [];
  const next: number[] = [];
  let node = root;
  for (;;) {
    // Enter `node`, an element or the document.
    if (node.kind === ELEMENT) {
      out += '<' + node.name + writeAttributes(node) + '>';
      if (node.children.length === 0 && NO_END_TAG_WHEN_EMPTY.has(node.name)) {
        if (open.length === 0) return out;
      } else {
        open.push(node);
        next.push(0);
      }
    } else {
      open.push(node);
      next.push(0);
    }
    // Write children until one needs entering, closing finished elements on the way up.
    let entered = false;
    while (open.length > 0) {
      const top = open.length - 1;
      const parent = open[top]!;
      const children = parent.children;
      const raw = parent.kind === ELEMENT && RAW_CONTENT.has(parent.name);
      let i = next[top]!;
      while (i < children.length) {
        const child = children[i++]!;
        if (child.kind === ELEMENT) {
          next[top] = i;
          node = child;
          entered = true;
          break;
        }
        out += writeLeaf(child, raw);
      }
      if (entered) break;
      open.pop();
      next.pop();
      if (parent.kind === ELEMENT) out += '</' + parent.name + '>';
    }
    if (!entered) return out;
  }
}

export function serializeHtml(node: DomNode): string {
  return write(node);
}
