/**
 * AST → closures. Runs once per expression and namespace binding; nothing
 * here runs while a document is being queried.
 *
 * Types are static in XPath 1.0 except for variables, so each operator picks
 * its conversion and comparison code here (§3.4's table), and calls whose
 * arguments are all constants are computed here.
 */
import { DOCUMENT, DomNode, stringValue } from '../dom/node.js';
import type { BinaryOp, ExprAst, ParsedXPath } from './ast.js';
import {
  anyCode,
  booleanCode,
  constantCode,
  numberCode,
  type Code,
  type Fn,
  type Runtime,
} from './code.js';
import { XPathError } from './errors.js';
import { EXTENSION_NAMESPACES, NULL_NAMESPACE_EXTENSIONS } from './extensions.js';
import { CORE_FUNCTIONS, type CallSite, type FunctionDef } from './functions.js';
import { compileFilterExpr, compileLocationPath, compileUnion, unionOfMany, type PathEnv } from './paths.js';
import { chainOf } from './parser.js';
import { describeType } from './functions.js';
import { containsWord, hasXmlSpace } from './strings.js';
import {
  compareNodeSets,
  compareNodesWith,
  compareNumbers,
  compareValues,
  flipOp,
  stringToNumber,
  type ComparisonOp,
  type XPathValue,
} from './values.js';

export interface VariableRef {
  readonly name: string;
  readonly pos: number;
}

export interface Program {
  readonly run: Fn<XPathValue>;
  /** Variables the expression reads; evaluate checks they are bound before running. */
  readonly variables: readonly VariableRef[];
}

/** Resolves a namespace prefix to its URI, or undefined when unbound. */
export type PrefixResolver = (prefix: string) => string | undefined;

const FOLD_NODE = new DomNode(DOCUMENT, '', '');
const FOLD_RUNTIME: Runtime = { vars: {} };

function arityText(def: FunctionDef): string {
  if (def.min === def.max) return `exactly ${def.min} argument${def.min === 1 ? '' : 's'}`;
  if (def.max === Infinity) return `at least ${def.min} argument${def.min === 1 ? '' : 's'}`;
  return `${def.min} to ${def.max} arguments`;
}

class Compiler implements PathEnv {
  readonly variables: VariableRef[] = [];

  constructor(
    private readonly source: string,
    private readonly resolver: PrefixResolver,
  ) {}

  fail(pos: number, reason: string): never {
    throw new XPathError(this.source, pos, reason);
  }

  resolvePrefix(prefix: string, pos: number): string {
    const uri = this.resolver(prefix);
    if (uri === undefined) {
      return this.fail(pos, `undefined namespace prefix '${prefix}' (register it in the namespaces passed to the query)`);
    }
    if (uri === '') return this.fail(pos, `namespace prefix '${prefix}' is bound to an empty URI, which XPath 1.0 does not allow`);
    return uri;
  }

  compile(ast: ExprAst): Code {
    switch (ast.kind) {
      case 'number':
        return constantCode(ast.value);
      case 'literal':
        return constantCode(ast.value);
      case 'variable': {
        const name = ast.name;
        this.variables.push({ name, pos: ast.pos });
        return anyCode((_n, _p, _s, rt) => rt.vars[name]!, 0);
      }
      case 'negate': {
        const operand = this.compile(ast.operand);
        const num = operand.num;
        return this.fold(numberCode((n, p, s, rt) => -num(n, p, s, rt), operand.deps), [operand]);
      }
      case 'binary':
        if (ast.op === 'or' || ast.op === 'and' || ast.op === '|') {
          if (ast.left.kind === 'binary' && ast.left.op === ast.op) return this.compileChain(ast);
        }
        return this.compileBinary(ast.op, ast.left, ast.right, ast.pos);
      case 'path':
        return compileLocationPath(ast.absolute, ast.steps, this);
      case 'filter':
        return compileFilterExpr(this.compile(ast.primary), ast.preds, ast.steps, ast.pos, this);
      case 'call':
        return this.compileCall(ast);
    }
  }

  /** Replaces code whose operands are all constants by its value. */
  private fold(code: Code, operands: readonly Code[]): Code {
    if (code.type === 'nodeset' || code.type === 'any') return code;
    if (!operands.every((o) => o.constant !== undefined)) return code;
    return constantCode(code.value(FOLD_NODE, 1, 1, FOLD_RUNTIME) as string | number | boolean);
  }

  /**
   * `a or b or c …`, `a and b and …`, `a | b | …` of three operands or more:
   * one loop over the operands instead of a closure per operator, so that a
   * chain of thousands neither recurses here nor when it runs. Same
   * results, same short-circuit order, same errors as the pairwise form.
   */
  private compileChain(ast: Extract<ExprAst, { kind: 'binary' }>): Code {
    const { operands, positions } = chainOf(ast);
    const codes: Code[] = [];
    for (let i = 0; i < operands.length; i++) {
      const code = this.compile(operands[i]!);
      if (ast.op === '|') {
        if (i === 1 && codes[0]!.set === null) {
          this.fail(positions[0]!, `'|' joins node-sets, but its left operand is ${describeType(codes[0]!)}`);
        }
        if (i > 0 && code.set === null) this.fail(positions[i - 1]!, `'|' joins node-sets, but its right operand is ${describeType(code)}`);
      }
      codes.push(code);
    }
    let deps = 0;
    for (const c of codes) deps |= c.deps;
    if (ast.op === '|') return unionOfMany(codes.map((c) => c.set!), deps);
    const fns = codes.map((c) => c.bool);
    const n = fns.length;
    const code =
      ast.op === 'or'
        ? booleanCode((node, p, s, rt) => {
            for (let i = 0; i < n; i++) if (fns[i]!(node, p, s, rt)) return true;
            return false;
          }, deps)
        : booleanCode((node, p, s, rt) => {
            for (let i = 0; i < n; i++) if (!fns[i]!(node, p, s, rt)) return false;
            return true;
          }, deps);
    return this.fold(code, codes);
  }

  private compileBinary(op: BinaryOp, leftAst: ExprAst, rightAst: ExprAst, pos: number): Code {
    const empty = op === '=' || op === '!=' ? this.countIsZero(leftAst, rightAst) : null;
    if (empty !== null) {
      // `count(preceding-sibling::*) = 0` (cssselect's :first-child, :last-child, :first-of-type …):
      // whether the node-set is empty, answered by the first node found instead of counting them all,
      // which made `li:last-child` quadratic in the number of siblings.
      const exists = empty.exists;
      return op === '=' ? booleanCode((n, p, s, rt) => !exists(n, p, s, rt), empty.deps) : booleanCode(exists, empty.deps);
    }
    const left = this.compile(leftAst);
    const right = this.compile(rightAst);
    const deps = left.deps | right.deps;
    switch (op) {
      case 'or': {
        const a = left.bool;
        const b = right.bool;
        return this.fold(booleanCode((n, p, s, rt) => a(n, p, s, rt) || b(n, p, s, rt), deps), [left, right]);
      }
      case 'and': {
        const a = left.bool;
        const b = right.bool;
        return this.fold(booleanCode((n, p, s, rt) => a(n, p, s, rt) && b(n, p, s, rt), deps), [left, right]);
      }
      case '|':
        return compileUnion(left, right, pos, this);
      case '+':
      case '-':
      case '*':
      case 'div':
      case 'mod':
        return this.fold(arithmetic(op, left.num, right.num, deps), [left, right]);
      default:
        return this.fold(comparison(op, left, right), [left, right]);
    }
  }

  /** For `count(X) = 0`: X's exists() and deps, or null when the comparison has another shape. */
  private countIsZero(leftAst: ExprAst, rightAst: ExprAst): { exists: Fn<boolean>; deps: number } | null {
    if (rightAst.kind !== 'number' || rightAst.value !== 0) return null;
    if (leftAst.kind !== 'call' || leftAst.prefix !== '' || leftAst.local !== 'count' || leftAst.args.length !== 1) return null;
    const arg = this.compile(leftAst.args[0]!);
    if (arg.set === null) return null; // count() of a non-node-set: compiled the usual way, which reports it
    return { exists: arg.set.exists, deps: arg.deps };
  }

  private compileCall(ast: Extract<ExprAst, { kind: 'call' }>): Code {
    let def: FunctionDef | undefined;
    if (ast.prefix === '') def = CORE_FUNCTIONS.get(ast.local) ?? NULL_NAMESPACE_EXTENSIONS.get(ast.local);
    else {
      const uri = this.resolvePrefix(ast.prefix, ast.pos);
      def = EXTENSION_NAMESPACES.get(uri)?.get(ast.local);
    }
    if (def === undefined) return this.fail(ast.pos, `unknown function '${ast.name}()'`);
    if (ast.args.length < def.min || ast.args.length > def.max) {
      const got = ast.args.length;
      return this.fail(ast.pos, `${ast.name}() takes ${arityText(def)}, got ${got}`);
    }
    const site: CallSite = {
      name: ast.name,
      pos: ast.pos,
      fail: (reason) => this.fail(ast.pos, reason),
    };
    const word = classWordTest(ast, this);
    if (word !== null) return word;
    const args = ast.args.map((a) => this.compile(a));
    const code = def.build(args, site);
    return def.pure && args.length > 0 ? this.fold(code, args) : code;
  }
}

function arithmetic(op: '+' | '-' | '*' | 'div' | 'mod', a: Fn<number>, b: Fn<number>, deps: number): Code {
  switch (op) {
    case '+':
      return numberCode((n, p, s, rt) => a(n, p, s, rt) + b(n, p, s, rt), deps);
    case '-':
      return numberCode((n, p, s, rt) => a(n, p, s, rt) - b(n, p, s, rt), deps);
    case '*':
      return numberCode((n, p, s, rt) => a(n, p, s, rt) * b(n, p, s, rt), deps);
    case 'div':
      return numberCode((n, p, s, rt) => a(n, p, s, rt) / b(n, p, s, rt), deps);
    default:
      // XPath's mod truncates like C fmod, which is JavaScript's %.
      return numberCode((n, p, s, rt) => a(n, p, s, rt) % b(n, p, s, rt), deps);
  }
}

/** §3.4, specialised on the operands' static types. */
function comparison(op: ComparisonOp, left: Code, right: Code): Code {
  const deps = left.deps | right.deps;
  if (left.type === 'any' || right.type === 'any') {
    const a = left.value;
    const b = right.value;
    return booleanCode((n, p, s, rt) => compareValues(op, a(n, p, s, rt), b(n, p, s, rt)), deps);
  }
  if (left.set !== null && right.set !== null) {
    const a = left.set.all;
    const b = right.set.all;
    return booleanCode((n, p, s, rt) => compareNodeSets(op, a(n, p, s, rt), b(n, p, s, rt)), deps);
  }
  if (left.set !== null || right.set !== null) {
    const nodes = left.set !== null ? left : right;
    const other = left.set !== null ? right : left;
    const o = left.set !== null ? op : flipOp(op);
    return nodeSetComparison(o, nodes, other, deps);
  }
  if (op === '=' || op === '!=') {
    const want = op === '=';
    if (left.type === 'boolean' || right.type === 'boolean') {
      const a = left.bool;
      const b = right.bool;
      return booleanCode((n, p, s, rt) => (a(n, p, s, rt) === b(n, p, s, rt)) === want, deps);
    }
    if (left.type === 'number' || right.type === 'number') {
      const a = left.num;
      const b = right.num;
      return booleanCode((n, p, s, rt) => compareNumbers(op, a(n, p, s, rt), b(n, p, s, rt)), deps);
    }
    const a = left.str;
    const b = right.str;
    return booleanCode((n, p, s, rt) => (a(n, p, s, rt) === b(n, p, s, rt)) === want, deps);
  }
  const a = left.num;
  const b = right.num;
  return booleanCode((n, p, s, rt) => compareNumbers(op, a(n, p, s, rt), b(n, p, s, rt)), deps);
}

/** A node-set (left after flipping) against a string, number or boolean. */
function nodeSetComparison(op: ComparisonOp, nodes: Code, other: Code, deps: number): Code {
  const set = nodes.set!;
  if (other.type === 'boolean') {
    const exists = set.exists;
    const b = other.bool;
    return booleanCode((n, p, s, rt) => compareNumbers(op, exists(n, p, s, rt) ? 1 : 0, b(n, p, s, rt) ? 1 : 0), deps);
  }
  if (set.atMostOne) {
    // `@id = 'x'`: one attribute at most, so no node-set is built.
    const first = set.first;
    if (other.type === 'string' && (op === '=' || op === '!=')) {
      const str = other.str;
      const want = op === '=';
      return booleanCode((n, p, s, rt) => {
        const f = first(n, p, s, rt);
        return f !== null && (stringValue(f) === str(n, p, s, rt)) === want;
      }, deps);
    }
    const num = other.num;
    return booleanCode((n, p, s, rt) => {
      const f = first(n, p, s, rt);
      return f !== null && compareNumbers(op, stringToNumber(stringValue(f)), num(n, p, s, rt));
    }, deps);
  }
  const all = set.all;
  const value = other.type === 'string' ? other.str : other.num;
  return booleanCode((n, p, s, rt) => compareNodesWith(op, all(n, p, s, rt), value(n, p, s, rt)), deps);
}

/**
 * cssselect writes `.foo` as `contains(concat(' ', normalize-space(@class), ' '), ' foo ')`.
 * For a single word that is "foo is one of the whitespace-separated words",
 * answered on the attribute value directly: same result, no strings built.
 */
function classWordTest(ast: Extract<ExprAst, { kind: 'call' }>, compiler: Compiler): Code | null {
  if (ast.prefix !== '' || ast.local !== 'contains' || ast.args.length !== 2) return null;
  const [haystack, needle] = ast.args as [ExprAst, ExprAst];
  if (needle.kind !== 'literal' || haystack.kind !== 'call' || haystack.prefix !== '' || haystack.local !== 'concat') return null;
  const word = needle.value.slice(1, -1);
  if (needle.value.length < 3 || needle.value[0] !== ' ' || needle.value[needle.value.length - 1] !== ' ' || hasXmlSpace(word)) return null;
  const parts = haystack.args;
  if (parts.length !== 3) return null;
  const [open, middle, close] = parts as [ExprAst, ExprAst, ExprAst];
  if (open.kind !== 'literal' || open.value !== ' ' || close.kind !== 'literal' || close.value !== ' ') return null;
  if (middle.kind !== 'call' || middle.prefix !== '' || middle.local !== 'normalize-space' || middle.args.length !== 1) return null;
  const subject = compiler.compile(middle.args[0]!);
  const str = subject.str;
  return booleanCode((n, p, s, rt) => containsWord(str(n, p, s, rt), word), subject.deps);
}

export function compileProgram(parsed: ParsedXPath, resolver: PrefixResolver): Program {
  const compiler = new Compiler(parsed.source, resolver);
  const code = compiler.compile(parsed.ast);
  return { run: code.value, variables: compiler.variables };
}
