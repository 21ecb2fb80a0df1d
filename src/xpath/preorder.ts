/**
 * Tree walking helpers, and the per-document array of nodes in document
 * order that makes subtree scans fast.
 *
 * Walking a subtree through `children` arrays is pointer chasing: each step
 * waits for the previous load. On the 100 KB benchmark page (5,980 nodes,
 * 1,922 attributes) a full walk took ~100 µs, and the same visit over an
 * array of the nodes in `order` took ~12 µs, because the array's loads do
 * not depend on each other. A subtree is a contiguous slice of that array
 * (from the node to its last descendant), so descendant, following and
 * preceding scans become loops over a range. The array is built once per
 * document, on the first scan of a subtree big enough to pay for it, and
 * kept on the tree's root node (`DomNode.preorder`), so it goes with the tree.
 *
 * It was a WeakMap keyed by the root until the crawl benchmark showed what
 * that cost: V8's scavenger keeps a WeakMap value alive while the map itself
 * is in old space, and the value (every node, the root among them) keeps its
 * key alive, so every parsed page survived each minor GC until the next full
 * one. In `npm run bench:crawl` that promoted ~320 MB of dead DOM trees per
 * 2,000 pages (`--trace-gc-nvp`, together with releasing the response's
 * document after its callback, src/engine/scrape.ts); a loop parsing the
 * same page 3,000 times promoted 560 MB with the WeakMap and 2.4 MB without.
 */
import type { DomNode } from '../dom/node.js';

/** Last node of `n`'s subtree in document order (n itself when it has no children). */
export function lastDescendant(n: DomNode): DomNode {
  let cur = n;
  while (cur.children.length > 0) cur = cur.children[cur.children.length - 1]!;
  return cur;
}

/** Highest `order` inside `n`'s subtree, attributes included. */
export function subtreeEnd(n: DomNode): number {
  const last = lastDescendant(n);
  return last.order + last.attrs.length;
}

/** The node after `n` in document order that is not inside `n`, staying inside `root`; null at the end. */
export function nextSkippingChildren(n: DomNode, root: DomNode | null): DomNode | null {
  let cur = n;
  while (cur !== root) {
    const p = cur.parent;
    if (p === null) return null;
    const siblings = p.children;
    if (cur.index + 1 < siblings.length) return siblings[cur.index + 1]!;
    cur = p;
  }
  return null;
}

/**
 * Below this many nodes a scan walks the tree instead of building the
 * document's array: building costs about one full walk, so it pays from the
 * second scan of a large subtree on, and never for small documents.
 */
const BUILD_THRESHOLD = 256;

function buildPreorder(root: DomNode): DomNode[] | null {
  const out: DomNode[] = [];
  let n: DomNode | null = root;
  while (n !== null) {
    // `order` must be the position: numberTree's numbering. Hand-built or edited-but-unnumbered trees are walked instead.
    if (n.order !== out.length) return null;
    out.push(n);
    const attrs = n.attrs;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i]!;
      if (a.order !== out.length) return null;
      out.push(a);
    }
    const ch: DomNode[] = n.children;
    n = ch.length > 0 ? ch[0]! : nextSkippingChildren(n, root);
  }
  return out;
}

/**
 * The document-order array of `ctx`'s tree when it is worth using for the
 * subtree ending at `last`, else null (walk the tree). A tree renumbered
 * after an edit is noticed (a node is not at its slot) and re-indexed.
 */
export function preorderFor(ctx: DomNode, last: DomNode): DomNode[] | null {
  let root = ctx;
  while (root.parent !== null) root = root.parent;
  let nodes = root.preorder;
  if (nodes === undefined) {
    if (last.order - ctx.order < BUILD_THRESHOLD) return null;
    nodes = buildPreorder(root);
    root.preorder = nodes;
    return nodes !== null && nodes[ctx.order] === ctx && nodes[last.order] === last ? nodes : null;
  }
  if (nodes === null) return null;
  if (nodes[ctx.order] === ctx && nodes[last.order] === last) return nodes;
  // Not a node of the array (namespace nodes have fractional orders): walk, do not rebuild.
  if (!Number.isInteger(ctx.order)) return null;
  nodes = buildPreorder(root);
  root.preorder = nodes;
  return nodes !== null && nodes[ctx.order] === ctx && nodes[last.order] === last ? nodes : null;
}

/** The array for a scan that reaches the end of the document from `ctx` (following, preceding). */
export function preorderOfDocument(ctx: DomNode): DomNode[] | null {
  let root = ctx;
  while (root.parent !== null) root = root.parent;
  const nodes = preorderFor(root, lastDescendant(root));
  return nodes !== null && nodes[ctx.order] === ctx ? nodes : null;
}
