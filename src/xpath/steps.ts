/**
 * One location step (axis + node test + predicates) compiled for one context
 * node at a time.
 *
 * Predicates are sorted into kinds at compile time. Predicates that cannot
 * see the position (`[@class]`, `[a]`, `[name() = 'p']`) run inside the axis
 * loop and nothing is collected; `[3]` stops the walk at the third match;
 * only predicates that read position() or last() (or whose value is a number
 * at run time) collect the axis's nodes first. Positions count in axis order,
 * so reverse axes count backwards, as XPath requires.
 */
import { ATTRIBUTE, type DomNode } from '../dom/node.js';
import type { AxisScan, NodeTest } from './axes.js';
import { lastDescendant, nextSkippingChildren, preorderFor } from './preorder.js';
import { USES_POSITION, USES_SIZE, type Code, type Fn, type Runtime } from './code.js';
import { toBooleanValue } from './values.js';

export type Pred =
  /** Cannot see the context position or size. */
  | { readonly kind: 'filter'; readonly fn: Fn<boolean> }
  /** A constant number: keep the node at that position (none when not a positive integer). */
  | { readonly kind: 'nth'; readonly n: number }
  /** Exactly `last()`. */
  | { readonly kind: 'last' }
  /** Anything else: called with the node's position and the set's size. */
  | { readonly kind: 'positional'; readonly fn: Fn<boolean> };

/** How a predicate's value selects nodes: numbers compare with the position, anything else converts to boolean. */
export function classifyPredicate(code: Code, isLastCall: boolean): Pred {
  if (typeof code.constant === 'number') return { kind: 'nth', n: code.constant };
  if (isLastCall) return { kind: 'last' };
  if (code.type === 'number') {
    const num = code.num;
    return { kind: 'positional', fn: (n, p, s, rt) => num(n, p, s, rt) === p };
  }
  if (code.type === 'any') {
    const value = code.value;
    return {
      kind: 'positional',
      fn: (n, p, s, rt) => {
        const v = value(n, p, s, rt);
        return typeof v === 'number' ? v === p : toBooleanValue(v);
      },
    };
  }
  if ((code.deps & (USES_POSITION | USES_SIZE)) === 0) return { kind: 'filter', fn: code.bool };
  return { kind: 'positional', fn: code.bool };
}

export function allFilters(preds: readonly Pred[]): boolean {
  return preds.every((p) => p.kind === 'filter');
}

/** One closure testing all the filters, or null when there are none. */
export function combineFilters(fns: readonly Fn<boolean>[]): Fn<boolean> | null {
  if (fns.length === 0) return null;
  if (fns.length === 1) return fns[0]!;
  if (fns.length === 2) {
    const [a, b] = fns as [Fn<boolean>, Fn<boolean>];
    return (n, p, s, rt) => a(n, p, s, rt) && b(n, p, s, rt);
  }
  return (n, p, s, rt) => {
    for (let i = 0; i < fns.length; i++) if (!fns[i]!(n, p, s, rt)) return false;
    return true;
  };
}

/**
 * Moves to the front of `nodes` (in the order positions count) those that
 * pass each predicate in turn and returns how many; the array is not
 * truncated, because setting `length` is a runtime call that cost more than
 * the predicates themselves in per-node loops (measured: 38 % of
 * `//table//tr[position() > 1]`).
 */
export function applyPredicates(nodes: DomNode[], preds: readonly Pred[], rt: Runtime): number {
  let len = nodes.length;
  for (let k = 0; k < preds.length && len > 0; k++) {
    const pred = preds[k]!;
    switch (pred.kind) {
      case 'nth': {
        const i = pred.n;
        if (i >= 1 && i <= len && Math.floor(i) === i) {
          nodes[0] = nodes[i - 1]!;
          len = 1;
        } else len = 0;
        break;
      }
      case 'last':
        nodes[0] = nodes[len - 1]!;
        len = 1;
        break;
      default: {
        const fn = pred.fn;
        const size = len;
        let w = 0;
        for (let i = 0; i < size; i++) {
          const n = nodes[i]!;
          if (fn(n, i + 1, size, rt)) nodes[w++] = n;
        }
        len = w;
      }
    }
  }
  return len;
}

/** Facts about a step's output that let paths skip sorting and de-duplication. */
export interface StepShape {
  /** Output from one context node is in reverse document order (reverse axes). */
  readonly reverse: boolean;
  /** Output from one context node is in document order. */
  readonly sortedFromOne: boolean;
  /** Every result lies in the context node's subtree (its attributes included). */
  readonly subtreeOnly: boolean;
  /** Results from a node inside the context's subtree are a subset of the context's: nested contexts can be skipped. */
  readonly coversDescendants: boolean;
  /** No result is an ancestor of another when the context nodes have that property. */
  readonly flatFromFlat: boolean;
  /** No result is an ancestor of another when there is one context node. */
  readonly flatFromOne: boolean;
  /** At most one result per context node. */
  readonly atMostOne: boolean;
}

export interface StepCode extends StepShape {
  /** Appends the step's nodes for one context node (axis order, or document order when `sortedFromOne`). */
  readonly run: (ctx: DomNode, rt: Runtime, out: DomNode[]) => void;
  readonly exists: (ctx: DomNode, rt: Runtime) => boolean;
  /** Number of distinct results from one context node, when it can be counted without collecting them. */
  readonly count: ((ctx: DomNode, rt: Runtime) => number) | null;
  /** First result in document order from one context node, when cheaper than `run`. */
  readonly first: ((ctx: DomNode, rt: Runtime) => DomNode | null) | null;
}

export function compileStep(scan: AxisScan, test: NodeTest, preds: readonly Pred[], shape: StepShape): StepCode {
  if (allFilters(preds)) {
    const filter = combineFilters(preds.map((p) => (p as { fn: Fn<boolean> }).fn));
    const one: DomNode[] = [];
    return {
      ...shape,
      run: (ctx, rt, out) => {
        scan(ctx, test, filter, rt, out, Infinity);
      },
      exists: (ctx, rt) => scan(ctx, test, filter, rt, null, 1) > 0,
      count: (ctx, rt) => scan(ctx, test, filter, rt, null, Infinity),
      first: shape.reverse
        ? null
        : (ctx, rt) => {
            scan(ctx, test, filter, rt, one, 1);
            return one.length > 0 ? one.pop()! : null;
          },
    };
  }

  // Leading filters run inside the walk; a leading [n] bounds it.
  let lead = 0;
  while (lead < preds.length && preds[lead]!.kind === 'filter') lead++;
  const leadFilter = combineFilters(preds.slice(0, lead).map((p) => (p as { fn: Fn<boolean> }).fn));
  const rest = preds.slice(lead);
  const firstRest = rest[0]!;
  const limit = firstRest.kind === 'nth' && firstRest.n >= 1 ? Math.floor(firstRest.n) : Infinity;
  const collect = (ctx: DomNode, rt: Runtime): DomNode[] => {
    const candidates: DomNode[] = [];
    scan(ctx, test, leadFilter, rt, candidates, limit);
    return candidates;
  };
  return {
    ...shape,
    run: (ctx, rt, out) => {
      const candidates = collect(ctx, rt);
      if (candidates.length === 0) return;
      const len = applyPredicates(candidates, rest, rt);
      for (let i = 0; i < len; i++) out.push(candidates[i]!);
    },
    exists: (ctx, rt) => {
      const candidates = collect(ctx, rt);
      return candidates.length > 0 && applyPredicates(candidates, rest, rt) > 0;
    },
    count: (ctx, rt) => {
      const candidates = collect(ctx, rt);
      return candidates.length === 0 ? 0 : applyPredicates(candidates, rest, rt);
    },
    first: null,
  };
}

/**
 * `descendant-or-self::node()/step` where `step` has positional predicates
 * (`//p[1]`: the first p of every parent): the step runs from every node of
 * the subtree, without materializing the subtree first.
 */
export function compileEachDescendantOrSelf(inner: StepCode, sortedFromOne: boolean): StepCode {
  const walk = (ctx: DomNode, visit: (n: DomNode) => boolean): boolean => {
    if (visit(ctx)) return true;
    if (ctx.children.length === 0) return false;
    const last = lastDescendant(ctx);
    const nodes = preorderFor(ctx, last);
    if (nodes !== null) {
      const end = last.order + last.attrs.length;
      for (let k = ctx.order + ctx.attrs.length + 1; k <= end; k++) {
        const n = nodes[k]!;
        if (n.kind !== ATTRIBUTE && visit(n)) return true;
      }
      return false;
    }
    let n: DomNode | null = ctx.children[0]!;
    while (n !== null) {
      if (visit(n)) return true;
      const ch: DomNode[] = n.children;
      n = ch.length > 0 ? ch[0]! : nextSkippingChildren(n, ctx);
    }
    return false;
  };
  return {
    reverse: false,
    // Only when `inner` stays on the node itself (self, attribute) does the walk emit in document order.
    sortedFromOne,
    subtreeOnly: inner.subtreeOnly,
    coversDescendants: false,
    flatFromFlat: false,
    flatFromOne: false,
    atMostOne: false,
    run: (ctx, rt, out) => {
      walk(ctx, (n) => {
        inner.run(n, rt, out);
        return false;
      });
    },
    exists: (ctx, rt) => walk(ctx, (n) => inner.exists(n, rt)),
    count: null,
    first: null,
  };
}
