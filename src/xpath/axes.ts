/**
 * Node tests and the 13 axes, as tight loops over `children`/`attrs` arrays.
 *
 * Every axis has the same signature: it appends to `out` (when not null) the
 * nodes of the axis from `ctx` that pass the node test and the optional
 * non-positional `filter`, in axis order (reverse document order for the
 * reverse axes), stops after `limit` of them, and returns how many it found.
 * With `out` null the same loop counts (`count(preceding-sibling::*)`, what
 * cssselect emits for :nth-child) or tests existence (`limit` 1) without
 * allocating. Subtree and document scans loop over the document-order
 * index (preorder.ts) when the tree has one; walks use `parent` and `index`
 * instead of recursion, so deep documents cannot overflow the stack.
 */
import { ATTRIBUTE, COMMENT, ELEMENT, PROCESSING_INSTRUCTION, TEXT, type DomNode } from '../dom/node.js';
import type { Fn, Runtime } from './code.js';
import { NAMESPACE, namespaceNodes } from './namespace-nodes.js';
import { lastDescendant, nextSkippingChildren, preorderFor, preorderOfDocument } from './preorder.js';

export const TEST_NODE = 0;
/** `*`: any node of the axis's principal kind (attributes on the attribute axis, elements elsewhere). */
export const TEST_PRINCIPAL = 1;
export const TEST_NAME = 2;
/** `prefix:*` */
export const TEST_NAMESPACE = 3;
export const TEST_TEXT = 4;
export const TEST_COMMENT = 5;
export const TEST_PI = 6;
export const TEST_PI_NAMED = 7;

export interface NodeTest {
  readonly kind: number;
  /** The axis's principal node kind: ELEMENT, ATTRIBUTE or NAMESPACE. */
  readonly principal: number;
  /** Local name for TEST_NAME, target for TEST_PI_NAMED. */
  readonly local: string;
  /** Namespace URI for TEST_NAME / TEST_NAMESPACE ('' = no namespace). */
  readonly uri: string;
}

export function matches(n: DomNode, t: NodeTest): boolean {
  switch (t.kind) {
    case TEST_NAME:
      return n.kind === t.principal && n.localName === t.local && n.ns === t.uri;
    case TEST_PRINCIPAL:
      return n.kind === t.principal;
    case TEST_NODE:
      return true;
    case TEST_TEXT:
      return n.kind === TEXT;
    case TEST_NAMESPACE:
      return n.kind === t.principal && n.ns === t.uri;
    case TEST_COMMENT:
      return n.kind === COMMENT;
    case TEST_PI:
      return n.kind === PROCESSING_INSTRUCTION;
    default:
      return n.kind === PROCESSING_INSTRUCTION && n.name === t.local;
  }
}

export type AxisScan = (
  ctx: DomNode,
  test: NodeTest,
  filter: Fn<boolean> | null,
  rt: Runtime,
  out: DomNode[] | null,
  limit: number,
) => number;

const scanChild: AxisScan = (ctx, test, filter, rt, out, limit) => {
  const ch = ctx.children;
  let count = 0;
  for (let i = 0; i < ch.length; i++) {
    const n = ch[i]!;
    if (matches(n, test) && (filter === null || filter(n, 1, 1, rt))) {
      if (out !== null) out.push(n);
      if (++count >= limit) break;
    }
  }
  return count;
};

const scanAttribute: AxisScan = (ctx, test, filter, rt, out, limit) => {
  const attrs = ctx.attrs;
  let count = 0;
  for (let i = 0; i < attrs.length; i++) {
    const n = attrs[i]!;
    if (matches(n, test) && (filter === null || filter(n, 1, 1, rt))) {
      if (out !== null) out.push(n);
      if (++count >= limit) break;
    }
  }
  return count;
};

/** Document-order scan of the subtree below `root` (root and its attributes excluded). */
function scanBelow(
  root: DomNode,
  test: NodeTest,
  filter: Fn<boolean> | null,
  rt: Runtime,
  out: DomNode[] | null,
  limit: number,
  found: number,
): number {
  if (root.children.length === 0) return found;
  let count = found;
  const last = lastDescendant(root);
  const nodes = preorderFor(root, last);
  if (nodes !== null) {
    const end = last.order + last.attrs.length;
    for (let k = root.order + root.attrs.length + 1; k <= end; k++) {
      const n = nodes[k]!;
      if (n.kind !== ATTRIBUTE && matches(n, test) && (filter === null || filter(n, 1, 1, rt))) {
        if (out !== null) out.push(n);
        if (++count >= limit) return count;
      }
    }
    return count;
  }
  let n: DomNode | null = root.children[0]!;
  while (n !== null) {
    if (matches(n, test) && (filter === null || filter(n, 1, 1, rt))) {
      if (out !== null) out.push(n);
      if (++count >= limit) return count;
    }
    const ch: DomNode[] = n.children;
    n = ch.length > 0 ? ch[0]! : nextSkippingChildren(n, root);
  }
  return count;
}

const scanDescendant: AxisScan = (ctx, test, filter, rt, out, limit) => scanBelow(ctx, test, filter, rt, out, limit, 0);

const scanSelf: AxisScan = (ctx, test, filter, rt, out) => {
  if (!matches(ctx, test) || (filter !== null && !filter(ctx, 1, 1, rt))) return 0;
  if (out !== null) out.push(ctx);
  return 1;
};

const scanDescendantOrSelf: AxisScan = (ctx, test, filter, rt, out, limit) => {
  const self = scanSelf(ctx, test, filter, rt, out, limit);
  return self >= limit ? self : scanBelow(ctx, test, filter, rt, out, limit, self);
};

const scanParent: AxisScan = (ctx, test, filter, rt, out) => {
  const p = ctx.parent;
  if (p === null || !matches(p, test) || (filter !== null && !filter(p, 1, 1, rt))) return 0;
  if (out !== null) out.push(p);
  return 1;
};

function scanUpFrom(start: DomNode | null, test: NodeTest, filter: Fn<boolean> | null, rt: Runtime, out: DomNode[] | null, limit: number, found: number): number {
  let count = found;
  for (let n = start; n !== null; n = n.parent) {
    if (matches(n, test) && (filter === null || filter(n, 1, 1, rt))) {
      if (out !== null) out.push(n);
      if (++count >= limit) break;
    }
  }
  return count;
}

const scanAncestor: AxisScan = (ctx, test, filter, rt, out, limit) => scanUpFrom(ctx.parent, test, filter, rt, out, limit, 0);

const scanAncestorOrSelf: AxisScan = (ctx, test, filter, rt, out, limit) => scanUpFrom(ctx, test, filter, rt, out, limit, 0);

const scanFollowingSibling: AxisScan = (ctx, test, filter, rt, out, limit) => {
  const p = ctx.parent;
  if (p === null || ctx.kind === ATTRIBUTE || ctx.kind === NAMESPACE) return 0;
  const siblings = p.children;
  let count = 0;
  for (let i = ctx.index + 1; i < siblings.length; i++) {
    const n = siblings[i]!;
    if (matches(n, test) && (filter === null || filter(n, 1, 1, rt))) {
      if (out !== null) out.push(n);
      if (++count >= limit) break;
    }
  }
  return count;
};

const scanPrecedingSibling: AxisScan = (ctx, test, filter, rt, out, limit) => {
  const p = ctx.parent;
  if (p === null || ctx.kind === ATTRIBUTE || ctx.kind === NAMESPACE) return 0;
  const siblings = p.children;
  let count = 0;
  for (let i = ctx.index - 1; i >= 0; i--) {
    const n = siblings[i]!;
    if (matches(n, test) && (filter === null || filter(n, 1, 1, rt))) {
      if (out !== null) out.push(n);
      if (++count >= limit) break;
    }
  }
  return count;
};

const scanFollowing: AxisScan = (ctx, test, filter, rt, out, limit) => {
  // From an attribute (or namespace node), lxml (libxml2) starts after its
  // element's subtree: the element's children are not "following" it there,
  // though the data model would put them after the attribute. seine returns
  // what lxml returns.
  const from = ctx.kind === ATTRIBUTE || ctx.kind === NAMESPACE ? ctx.parent : ctx;
  if (from === null) return 0;
  let count = 0;
  const nodes = preorderOfDocument(from);
  if (nodes !== null) {
    const last = lastDescendant(from);
    for (let k = last.order + last.attrs.length + 1; k < nodes.length; k++) {
      const n = nodes[k]!;
      if (n.kind !== ATTRIBUTE && matches(n, test) && (filter === null || filter(n, 1, 1, rt))) {
        if (out !== null) out.push(n);
        if (++count >= limit) break;
      }
    }
    return count;
  }
  let n = nextSkippingChildren(from, null);
  while (n !== null) {
    if (matches(n, test) && (filter === null || filter(n, 1, 1, rt))) {
      if (out !== null) out.push(n);
      if (++count >= limit) break;
    }
    const ch: DomNode[] = n.children;
    n = ch.length > 0 ? ch[0]! : nextSkippingChildren(n, null);
  }
  return count;
};

const scanPreceding: AxisScan = (ctx, test, filter, rt, out, limit) => {
  // Backwards in document order; the ancestors met on the way are skipped.
  let cur = ctx.kind === ATTRIBUTE || ctx.kind === NAMESPACE ? ctx.parent : ctx;
  if (cur === null) return 0;
  let nextAncestor = cur.parent;
  let count = 0;
  const nodes = preorderOfDocument(cur);
  if (nodes !== null) {
    for (let k = cur.order - 1; k >= 0; k--) {
      const n = nodes[k]!;
      if (n.kind === ATTRIBUTE) continue;
      if (n === nextAncestor) {
        nextAncestor = n.parent;
        continue;
      }
      if (matches(n, test) && (filter === null || filter(n, 1, 1, rt))) {
        if (out !== null) out.push(n);
        if (++count >= limit) break;
      }
    }
    return count;
  }
  for (;;) {
    const p: DomNode | null = cur.parent;
    if (p === null) return count;
    if (cur.index > 0) {
      cur = lastDescendant(p.children[cur.index - 1]!);
    } else {
      cur = p;
      if (cur === nextAncestor) {
        nextAncestor = cur.parent;
        continue;
      }
    }
    if (matches(cur, test) && (filter === null || filter(cur, 1, 1, rt))) {
      if (out !== null) out.push(cur);
      if (++count >= limit) return count;
    }
  }
};

const scanNamespace: AxisScan = (ctx, test, filter, rt, out, limit) => {
  if (ctx.kind !== ELEMENT) return 0;
  const nodes = namespaceNodes(ctx);
  let count = 0;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (matches(n, test) && (filter === null || filter(n, 1, 1, rt))) {
      if (out !== null) out.push(n);
      if (++count >= limit) break;
    }
  }
  return count;
};

/** `descendant-or-self::node()/attribute::x` (what `//@x` means) as one walk. */
export const scanDescendantAttributes: AxisScan = (ctx, test, filter, rt, out, limit) => {
  let count = scanAttribute(ctx, test, filter, rt, out, limit);
  if (count >= limit || ctx.children.length === 0) return count;
  const last = lastDescendant(ctx);
  const nodes = preorderFor(ctx, last);
  if (nodes !== null) {
    // Attributes sit right after their element in the array.
    const end = last.order + last.attrs.length;
    for (let k = ctx.order + ctx.attrs.length + 1; k <= end; k++) {
      const n = nodes[k]!;
      if (n.kind === ATTRIBUTE && matches(n, test) && (filter === null || filter(n, 1, 1, rt))) {
        if (out !== null) out.push(n);
        if (++count >= limit) return count;
      }
    }
    return count;
  }
  let n: DomNode | null = ctx.children[0]!;
  while (n !== null) {
    if (n.kind === ELEMENT && n.attrs.length > 0) {
      count += scanAttribute(n, test, filter, rt, out, limit - count);
      if (count >= limit) return count;
    }
    const ch: DomNode[] = n.children;
    n = ch.length > 0 ? ch[0]! : nextSkippingChildren(n, ctx);
  }
  return count;
};

/**
 * `descendant-or-self::*\/child::x` (cssselect's descendant combinator): the
 * descendants whose parent is an element of the subtree. From an element
 * that is every descendant; from the document, everything below its
 * children.
 */
export const scanElementDescendants: AxisScan = (ctx, test, filter, rt, out, limit) => {
  if (ctx.kind === ELEMENT) return scanBelow(ctx, test, filter, rt, out, limit, 0);
  let count = 0;
  const ch = ctx.children;
  for (let i = 0; i < ch.length && count < limit; i++) count = scanBelow(ch[i]!, test, filter, rt, out, limit, count);
  return count;
};

export interface AxisInfo {
  readonly scan: AxisScan;
  readonly reverse: boolean;
  /** Principal node kind for `*` and names. */
  readonly principal: number;
}

export const AXIS_INFO: Readonly<Record<string, AxisInfo>> = {
  child: { scan: scanChild, reverse: false, principal: ELEMENT },
  attribute: { scan: scanAttribute, reverse: false, principal: ATTRIBUTE },
  descendant: { scan: scanDescendant, reverse: false, principal: ELEMENT },
  'descendant-or-self': { scan: scanDescendantOrSelf, reverse: false, principal: ELEMENT },
  self: { scan: scanSelf, reverse: false, principal: ELEMENT },
  parent: { scan: scanParent, reverse: true, principal: ELEMENT },
  ancestor: { scan: scanAncestor, reverse: true, principal: ELEMENT },
  'ancestor-or-self': { scan: scanAncestorOrSelf, reverse: true, principal: ELEMENT },
  'following-sibling': { scan: scanFollowingSibling, reverse: false, principal: ELEMENT },
  'preceding-sibling': { scan: scanPrecedingSibling, reverse: true, principal: ELEMENT },
  following: { scan: scanFollowing, reverse: false, principal: ELEMENT },
  preceding: { scan: scanPreceding, reverse: true, principal: ELEMENT },
  namespace: { scan: scanNamespace, reverse: false, principal: NAMESPACE },
};
