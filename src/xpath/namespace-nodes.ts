/**
 * Namespace nodes for the `namespace::` axis, which the shared tree does
 * not store (declarations live in `nsDecls`).
 *
 * They are DomNodes of kind NAMESPACE (13, the DOM's XPathNamespace type):
 * `name` and `localName` are the prefix ('' for the default namespace),
 * `data` (the string-value) is the URI, `parent` is the element. As in lxml,
 * every element has one per prefix in scope, the `xml` namespace first,
 * then the others in libxml2's order (nearest declarations last-declared
 * first, then the ancestors'); an `xmlns=""` undeclaration appears with an
 * empty URI. They sit in document order between their element and its
 * attributes (fractional `order`s), and are created once per element so that
 * unions recognise them.
 */
import { DomNode, ELEMENT, type NodeKind } from '../dom/node.js';

export const NAMESPACE = 13 as NodeKind;

export const XML_NAMESPACE_URI = 'http://www.w3.org/XML/1998/namespace';

const cache = new WeakMap<DomNode, { order: number; nodes: DomNode[] }>();

function namespaceNode(element: DomNode, prefix: string, uri: string, index: number, total: number): DomNode {
  const n = new DomNode(NAMESPACE, prefix, uri);
  n.parent = element;
  n.index = index;
  // Between the element (order) and its first attribute (order + 1).
  n.order = element.order + (index + 1) / (total + 1);
  return n;
}

/** The element's namespace nodes in axis order; empty for anything but an element. */
export function namespaceNodes(element: DomNode): DomNode[] {
  if (element.kind !== ELEMENT) return [];
  const hit = cache.get(element);
  if (hit !== undefined && hit.order === element.order) return hit.nodes;
  // libxml2's xmlGetNsList: nearest element first, declarations in order, first prefix wins; the axis then reads it backwards.
  const seen = new Set<string>();
  const found: [string, string][] = [];
  for (let n: DomNode | null = element; n !== null; n = n.parent) {
    if (n.nsDecls === null) continue;
    for (const [prefix, uri] of n.nsDecls) {
      if (prefix === 'xml' || seen.has(prefix)) continue;
      seen.add(prefix);
      found.push([prefix, uri]);
    }
  }
  const total = found.length + 1;
  const nodes = [namespaceNode(element, 'xml', XML_NAMESPACE_URI, 0, total)];
  for (let i = found.length - 1; i >= 0; i--) {
    const [prefix, uri] = found[i]!;
    nodes.push(namespaceNode(element, prefix, uri, nodes.length, total));
  }
  cache.set(element, { order: element.order, nodes });
  return nodes;
}
