/**
 * Location paths, filter expressions (`(…)[1]/a`) and unions, compiled to
 * node-set code.
 *
 * Node-sets are kept in document order without duplicates, but sorting is
 * skipped whenever the step's shape proves it unnecessary (child or
 * attribute steps from nodes none of which contains another, descendant
 * steps from such nodes, anything from a single node). Nested context nodes
 * before a descendant step are skipped instead of de-duplicating afterwards.
 *
 * `descendant-or-self::node()/X` — what every `//X` means — never builds the
 * set of all nodes: with a non-positional X it becomes one walk
 * (`descendant::X`, `descendant-or-self::X`, or a walk over attributes for
 * `//@x`), and with a positional X (`//p[1]`, which must keep meaning "the
 * first p of each parent") X runs from each node of a single walk.
 */
import { ATTRIBUTE, ELEMENT, type DomNode } from '../dom/node.js';
import type { ExprAst, NodeTestAst, StepAst } from './ast.js';
import {
  AXIS_INFO,
  scanDescendantAttributes,
  scanElementDescendants,
  TEST_COMMENT,
  TEST_NAME,
  TEST_NAMESPACE,
  TEST_NODE,
  TEST_PI,
  TEST_PI_NAMED,
  TEST_PRINCIPAL,
  TEST_TEXT,
  type AxisScan,
  type NodeTest,
} from './axes.js';
import { nodeSetCode, type Code, type Fn, type NodeSetCode, type Runtime } from './code.js';
import { describeType } from './functions.js';
import {
  allFilters,
  applyPredicates,
  classifyPredicate,
  compileEachDescendantOrSelf,
  compileStep,
  type Pred,
  type StepCode,
  type StepShape,
} from './steps.js';
import { subtreeEnd } from './preorder.js';

export interface PathEnv {
  compile(ast: ExprAst): Code;
  resolvePrefix(prefix: string, pos: number): string;
  fail(pos: number, reason: string): never;
}

function shape(flags: string): StepShape {
  return {
    reverse: flags.includes('R'),
    sortedFromOne: flags.includes('S'),
    subtreeOnly: flags.includes('T'),
    coversDescendants: flags.includes('C'),
    flatFromFlat: flags.includes('F'),
    flatFromOne: flags.includes('O'),
    atMostOne: flags.includes('1'),
  };
}

// R reverse, S sorted from one node, T inside the subtree, C covers nested contexts,
// F flat from flat input, O flat from one node, 1 at most one node.
const SHAPES: Readonly<Record<string, StepShape>> = {
  child: shape('STFO'),
  attribute: shape('STFO'),
  self: shape('STFO1'),
  descendant: shape('STC'),
  'descendant-or-self': shape('STC'),
  parent: shape('RO1'),
  ancestor: shape('R'),
  'ancestor-or-self': shape('R'),
  'following-sibling': shape('SO'),
  'preceding-sibling': shape('RO'),
  following: shape('S'),
  preceding: shape('R'),
  namespace: shape('STFO'),
  descendantAttributes: shape('STCFO'),
  elementDescendants: shape('STC'),
};

function compileNodeTest(test: NodeTestAst, principal: number, env: PathEnv): NodeTest {
  switch (test.kind) {
    case 'node':
      return { kind: TEST_NODE, principal, local: '', uri: '' };
    case 'text':
      return { kind: TEST_TEXT, principal, local: '', uri: '' };
    case 'comment':
      return { kind: TEST_COMMENT, principal, local: '', uri: '' };
    case 'pi':
      return test.target === null
        ? { kind: TEST_PI, principal, local: '', uri: '' }
        : { kind: TEST_PI_NAMED, principal, local: test.target, uri: '' };
    default: {
      const uri = test.prefix === '' ? '' : env.resolvePrefix(test.prefix, test.pos);
      if (test.local === '*') return { kind: test.prefix === '' ? TEST_PRINCIPAL : TEST_NAMESPACE, principal, local: '', uri };
      return { kind: TEST_NAME, principal, local: test.local, uri };
    }
  }
}

function isLastCall(ast: ExprAst): boolean {
  return ast.kind === 'call' && ast.prefix === '' && ast.local === 'last' && ast.args.length === 0;
}

export function compilePredicates(asts: readonly ExprAst[], env: PathEnv): Pred[] {
  return asts.map((ast) => classifyPredicate(env.compile(ast), isLastCall(ast)));
}

function makeStep(scan: AxisScan, shapeName: string, step: StepAst, principal: number, preds: Pred[], env: PathEnv): StepCode {
  const base = SHAPES[shapeName]!;
  const test = compileNodeTest(step.test, principal, env);
  const filtersOnly = allFilters(preds);
  return compileStep(scan, test, preds, {
    ...base,
    coversDescendants: base.coversDescendants && filtersOnly,
    atMostOne: base.atMostOne || (shapeName === 'attribute' && test.kind === TEST_NAME),
  });
}

function isBareDescendantOrSelf(step: StepAst, kind: 'node' | 'element'): boolean {
  if (step.axis !== 'descendant-or-self' || step.preds.length > 0) return false;
  if (kind === 'node') return step.test.kind === 'node';
  return step.test.kind === 'name' && step.test.prefix === '' && step.test.local === '*';
}

export function compileSteps(steps: readonly StepAst[], env: PathEnv): StepCode[] {
  const out: StepCode[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const next = steps[i + 1];
    if (next !== undefined && isBareDescendantOrSelf(step, 'node')) {
      const preds = compilePredicates(next.preds, env);
      const info = AXIS_INFO[next.axis]!;
      i++;
      if (allFilters(preds)) {
        if (next.axis === 'child' || next.axis === 'descendant') {
          out.push(makeStep(AXIS_INFO['descendant']!.scan, 'descendant', next, ELEMENT, preds, env));
          continue;
        }
        if (next.axis === 'self' || next.axis === 'descendant-or-self') {
          out.push(makeStep(AXIS_INFO['descendant-or-self']!.scan, 'descendant-or-self', next, ELEMENT, preds, env));
          continue;
        }
        if (next.axis === 'attribute') {
          out.push(makeStep(scanDescendantAttributes, 'descendantAttributes', next, ATTRIBUTE, preds, env));
          continue;
        }
      }
      const inner = makeStep(info.scan, next.axis, next, info.principal, preds, env);
      out.push(compileEachDescendantOrSelf(inner, next.axis === 'self' || next.axis === 'attribute'));
      continue;
    }
    if (next !== undefined && next.axis === 'child' && isBareDescendantOrSelf(step, 'element')) {
      const preds = compilePredicates(next.preds, env);
      i++;
      if (allFilters(preds)) {
        out.push(makeStep(scanElementDescendants, 'elementDescendants', next, ELEMENT, preds, env));
      } else {
        const dos = AXIS_INFO['descendant-or-self']!;
        out.push(makeStep(dos.scan, 'descendant-or-self', step, ELEMENT, [], env));
        out.push(makeStep(AXIS_INFO['child']!.scan, 'child', next, ELEMENT, preds, env));
      }
      continue;
    }
    const info = AXIS_INFO[step.axis]!;
    out.push(makeStep(info.scan, step.axis, step, info.principal, compilePredicates(step.preds, env), env));
  }
  return out;
}

function byOrder(a: DomNode, b: DomNode): number {
  return a.order - b.order;
}

/** Puts nodes in document order and drops duplicates, in place; a sorted input costs one pass. */
export function sortUnique(nodes: DomNode[]): void {
  const n = nodes.length;
  let i = 1;
  while (i < n && nodes[i - 1]!.order < nodes[i]!.order) i++;
  if (i >= n) return;
  nodes.sort(byOrder);
  let w = 1;
  for (let r = 1; r < n; r++) {
    const node = nodes[r]!;
    if (node !== nodes[w - 1]) nodes[w++] = node;
  }
  nodes.length = w;
}

/** Union of two document-ordered, duplicate-free node-sets. */
export function mergeNodeSets(a: DomNode[], b: DomNode[]): DomNode[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: DomNode[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x.order <= y.order) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** Applies steps[from…] to a document-ordered input. `flat`: no input node contains another. */
export function runSteps(input: DomNode[], flat: boolean, steps: readonly StepCode[], from: number, rt: Runtime): DomNode[] {
  let cur = input;
  let isFlat = flat;
  for (let i = from; i < steps.length; i++) {
    if (cur.length === 0) return cur;
    const step = steps[i]!;
    const out: DomNode[] = [];
    if (cur.length === 1) {
      step.run(cur[0]!, rt, out);
      if (step.reverse) out.reverse();
      else if (!step.sortedFromOne) sortUnique(out);
      isFlat = step.flatFromOne;
    } else if (step.coversDescendants && !isFlat) {
      let end = -1;
      for (let k = 0; k < cur.length; k++) {
        const c = cur[k]!;
        if (c.order <= end) continue;
        step.run(c, rt, out);
        end = subtreeEnd(c);
      }
      isFlat = step.flatFromFlat;
    } else {
      for (let k = 0; k < cur.length; k++) step.run(cur[k]!, rt, out);
      if (!(isFlat && step.subtreeOnly && step.sortedFromOne)) sortUnique(out);
      isFlat = isFlat && step.flatFromFlat;
    }
    cur = out;
  }
  return cur;
}

function rootOf(n: DomNode): DomNode {
  let cur = n;
  while (cur.parent !== null) cur = cur.parent;
  return cur;
}

/** Longest path whose existence test searches depth first (one stack frame per step). */
const MAX_SEARCH_STEPS = 64;

/** Node-set code for `steps` applied to one start node (the context node or its root). */
function singleStartPath(start: (n: DomNode) => DomNode, steps: StepCode[]): Code {
  if (steps.length === 0) return nodeSetCode({ all: (n) => [start(n)], atMostOne: true, count: () => 1, exists: () => true }, 0);
  const s0 = steps[0]!;
  const all: Fn<DomNode[]> = (n, _p, _s, rt) => {
    const out: DomNode[] = [];
    s0.run(start(n), rt, out);
    if (s0.reverse) out.reverse();
    else if (!s0.sortedFromOne) sortUnique(out);
    return steps.length === 1 ? out : runSteps(out, s0.flatFromOne, steps, 1, rt);
  };
  const atMostOne = steps.every((s) => s.atMostOne);
  if (steps.length === 1) {
    const count = s0.count;
    const first = s0.first;
    return nodeSetCode(
      {
        all,
        atMostOne,
        exists: (n, _p, _s, rt) => s0.exists(start(n), rt),
        count: count === null ? undefined : (n, _p, _s, rt) => count(start(n), rt),
        first: first === null ? undefined : (n, _p, _s, rt) => first(start(n), rt),
      },
      0,
    );
  }
  // Existence by depth-first search: stops at the first node the last step finds.
  const last = steps.length - 1;
  const existsFrom = (i: number, node: DomNode, rt: Runtime): boolean => {
    const step = steps[i]!;
    if (i === last) return step.exists(node, rt);
    const buf: DomNode[] = [];
    step.run(node, rt, buf);
    // Skipping nodes nested in one already searched holds only when the step gives ancestors before
    // their descendants: a reverse axis (ancestor::, preceding::) gives the nearest first, and
    // skipping there lost the outer ancestor's other descendants (boolean(//p/ancestor::*/descendant::title)).
    const skipNested = !step.reverse && steps[i + 1]!.coversDescendants;
    let end = -1;
    let found = false;
    for (let j = 0; j < buf.length; j++) {
      const c = buf[j]!;
      if (skipNested) {
        if (c.order <= end) continue;
        end = subtreeEnd(c);
      }
      if (existsFrom(i + 1, c, rt)) {
        found = true;
        break;
      }
    }
    return found;
  };
  // The search recurses once per step; a path of hundreds of steps (`a/b/c/…`, or cssselect's
  // output for a long descendant chain) builds its node-sets step by step instead.
  if (steps.length > MAX_SEARCH_STEPS) return nodeSetCode({ all, atMostOne }, 0);
  return nodeSetCode({ all, atMostOne, exists: (n, _p, _s, rt) => existsFrom(0, start(n), rt) }, 0);
}

export function compileLocationPath(absolute: boolean, steps: readonly StepAst[], env: PathEnv): Code {
  return singleStartPath(absolute ? rootOf : (n) => n, compileSteps(steps, env));
}

/** `primary[preds]/steps`; predicates count positions in document order. */
export function compileFilterExpr(primary: Code, predAsts: readonly ExprAst[], stepAsts: readonly StepAst[], pos: number, env: PathEnv): Code {
  const set = primary.set;
  if (set === null) {
    const what = predAsts.length > 0 ? 'a predicate' : "'/'";
    return env.fail(pos, `${what} can only follow a node-set, and this expression is ${describeType(primary)}`);
  }
  const preds = compilePredicates(predAsts, env);
  const steps = compileSteps(stepAsts, env);
  const source = set.all;
  if (preds.length === 0 && steps.length === 0) return primary;
  return nodeSetCode(
    {
      all: (n, p, s, rt) => {
        const nodes = source(n, p, s, rt);
        if (preds.length > 0) nodes.length = applyPredicates(nodes, preds, rt);
        return steps.length > 0 ? runSteps(nodes, set.atMostOne, steps, 0, rt) : nodes;
      },
      atMostOne: set.atMostOne && steps.every((st) => st.atMostOne),
    },
    primary.deps,
  );
}

export function compileUnion(left: Code, right: Code, pos: number, env: PathEnv): Code {
  const a = left.set;
  const b = right.set;
  if (a === null || b === null) {
    const bad = a === null ? left : right;
    return env.fail(pos, `'|' joins node-sets, but its ${a === null ? 'left' : 'right'} operand is ${describeType(bad)}`);
  }
  return nodeSetCode(
    {
      all: (n, p, s, rt) => mergeNodeSets(a.all(n, p, s, rt), b.all(n, p, s, rt)),
      exists: (n, p, s, rt) => a.exists(n, p, s, rt) || b.exists(n, p, s, rt),
      first: (n, p, s, rt) => {
        const x = a.first(n, p, s, rt);
        const y = b.first(n, p, s, rt);
        if (x === null) return y;
        if (y === null) return x;
        return y.order < x.order ? y : x;
      },
    },
    left.deps | right.deps,
  );
}

/** `a | b | c …`: every operand's nodes in one array, put in document order once. */
export function unionOfMany(sets: readonly NodeSetCode[], deps: number): Code {
  const n = sets.length;
  return nodeSetCode(
    {
      all: (node, p, s, rt) => {
        const out: DomNode[] = [];
        for (let i = 0; i < n; i++) {
          const part = sets[i]!.all(node, p, s, rt);
          for (let k = 0; k < part.length; k++) out.push(part[k]!);
        }
        sortUnique(out);
        return out;
      },
      exists: (node, p, s, rt) => {
        for (let i = 0; i < n; i++) if (sets[i]!.exists(node, p, s, rt)) return true;
        return false;
      },
      first: (node, p, s, rt) => {
        let best: DomNode | null = null;
        for (let i = 0; i < n; i++) {
          const f = sets[i]!.first(node, p, s, rt);
          if (f !== null && (best === null || f.order < best.order)) best = f;
        }
        return best;
      },
    },
    deps,
  );
}
