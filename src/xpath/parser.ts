/**
 * Recursive-descent parser for XPath 1.0, one function per grammar level
 * (https://www.w3.org/TR/xpath-10/#section-Expressions), lowest precedence
 * first: or, and, = !=, < <= > >=, + -, * div mod, unary -, |, paths.
 * Abbreviations are expanded here (`//` → `/descendant-or-self::node()/`,
 * `.` → `self::node()`, `..` → `parent::node()`, `@` → `attribute::`), so the
 * compiler only ever sees full steps.
 */
import type { Axis, BinaryOp, ExprAst, NodeTestAst, ParsedXPath, StepAst } from './ast.js';
import { XPathError } from './errors.js';
import { tokenize, type Token, type TokenType } from './lexer.js';

const DESCENDANT_OR_SELF_NODE = (pos: number): StepAst => ({
  axis: 'descendant-or-self',
  test: { kind: 'node' },
  preds: [],
  pos,
});

/**
 * How deeply an expression may nest (each parenthesis, predicate, function
 * call, and each operator whose operand is itself an operation, counts one
 * level; chains of `or`, `and` and `|` count as one). Far beyond what
 * people write, and low enough that parsing, compiling and evaluating stay
 * well inside Node's default stack even when called from deep in a program.
 */
export const MAX_XPATH_NESTING = 256;

/** Binary operators (except `|`, which binds tighter than unary minus) by precedence, lowest first. */
const BINARY_LEVEL: ReadonlyMap<string, number> = new Map([
  ['or', 0],
  ['and', 1],
  ['=', 2],
  ['!=', 2],
  ['<', 3],
  ['<=', 3],
  ['>', 3],
  ['>=', 3],
  ['+', 4],
  ['-', 4],
  ['*', 5],
  ['div', 5],
  ['mod', 5],
]);

function describe(token: Token): string {
  switch (token.type) {
    case 'eof':
      return 'the end of the expression';
    case 'literal':
      return `the string ${JSON.stringify(token.value)}`;
    case 'variable':
      return `'$${token.value}'`;
    default:
      return `'${token.value}'`;
  }
}

class Parser {
  private readonly tokens: Token[];
  private index = 0;
  private depth = 0;
  readonly prefixes = new Set<string>();

  constructor(private readonly source: string) {
    this.tokens = tokenize(source);
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (t.type !== 'eof') this.index++;
    return t;
  }

  private isOperator(value: string): boolean {
    const t = this.peek();
    return t.type === 'operator' && t.value === value;
  }

  private fail(token: Token, reason: string): never {
    throw new XPathError(this.source, token.pos, reason);
  }

  private expect(type: TokenType, what: string): Token {
    const t = this.peek();
    if (t.type !== type) this.fail(t, `expected ${what}, found ${describe(t)}`);
    return this.next();
  }

  parseAll(): ExprAst {
    const expr = this.parseExpr();
    const t = this.peek();
    if (t.type !== 'eof') this.fail(t, `unexpected ${describe(t)} after a complete expression`);
    return expr;
  }

  /**
   * Every nested expression (parentheses, predicates, function arguments)
   * passes here; past MAX_XPATH_NESTING levels the expression is refused
   * with a rule instead of overflowing the call stack.
   */
  private parseExpr(): ExprAst {
    if (++this.depth > MAX_XPATH_NESTING) this.tooDeep(this.peek());
    const expr = this.parseBinary(0);
    this.depth--;
    return expr;
  }

  tooDeep(at: Token | { pos: number }): never {
    throw new XPathError(this.source, at.pos, `the expression nests more than ${MAX_XPATH_NESTING} levels deep (parentheses, predicates, function calls and operators count); split it into several queries`);
  }

  /**
   * The binary operators by precedence climbing: operators of one level
   * associate to the left, as the grammar's one-function-per-level form
   * builds them, but a nested expression costs a few stack frames instead
   * of one per precedence level.
   */
  private parseBinary(minLevel: number): ExprAst {
    let left = this.parseUnary();
    for (;;) {
      const t = this.peek();
      if (t.type !== 'operator') return left;
      const level = BINARY_LEVEL.get(t.value);
      if (level === undefined || level < minLevel) return left;
      this.next();
      const right = this.parseBinary(level + 1);
      left = { kind: 'binary', op: t.value as BinaryOp, left, right, pos: t.pos };
    }
  }

  /** `-` repeated: a loop, so that `----…1` cannot exhaust the stack. */
  private parseUnary(): ExprAst {
    const minuses: Token[] = [];
    while (this.isOperator('-')) minuses.push(this.next());
    let expr = this.parseUnion();
    for (let i = minuses.length - 1; i >= 0; i--) expr = { kind: 'negate', operand: expr, pos: minuses[i]!.pos };
    return expr;
  }

  private parseUnion(): ExprAst {
    let left = this.parsePath();
    for (;;) {
      const t = this.peek();
      if (t.type !== 'operator' || t.value !== '|') return left;
      this.next();
      const right = this.parsePath();
      left = { kind: 'binary', op: '|', left, right, pos: t.pos };
    }
  }

  private startsStep(t: Token): boolean {
    switch (t.type) {
      case 'name':
      case 'nodeType':
      case 'axis':
      case '@':
      case '.':
      case '..':
        return true;
      default:
        return false;
    }
  }

  private parsePath(): ExprAst {
    const t = this.peek();
    switch (t.type) {
      case 'variable':
      case '(':
      case 'literal':
      case 'number':
      case 'function':
        return this.parseFilter();
    }
    if (t.type === 'operator' && t.value === '/') {
      this.next();
      const steps = this.startsStep(this.peek()) ? this.parseRelativeSteps([]) : [];
      return { kind: 'path', absolute: true, steps, pos: t.pos };
    }
    if (t.type === 'operator' && t.value === '//') {
      this.next();
      return { kind: 'path', absolute: true, steps: this.parseRelativeSteps([DESCENDANT_OR_SELF_NODE(t.pos)]), pos: t.pos };
    }
    if (this.startsStep(t)) return { kind: 'path', absolute: false, steps: this.parseRelativeSteps([]), pos: t.pos };
    return this.fail(t, `expected an expression, found ${describe(t)}`);
  }

  private parseFilter(): ExprAst {
    const start = this.peek();
    const primary = this.parsePrimary();
    const preds = this.parsePredicates();
    let steps: StepAst[] = [];
    const t = this.peek();
    if (t.type === 'operator' && (t.value === '/' || t.value === '//')) {
      this.next();
      steps = this.parseRelativeSteps(t.value === '//' ? [DESCENDANT_OR_SELF_NODE(t.pos)] : []);
    }
    if (preds.length === 0 && steps.length === 0) return primary;
    return { kind: 'filter', primary, preds, steps, pos: start.pos };
  }

  private parsePrimary(): ExprAst {
    const t = this.next();
    switch (t.type) {
      case 'variable':
        if (t.prefix !== '') this.prefixes.add(t.prefix);
        return { kind: 'variable', name: t.value, prefix: t.prefix, pos: t.pos };
      case 'literal':
        return { kind: 'literal', value: t.value, pos: t.pos };
      case 'number':
        return { kind: 'number', value: t.num, pos: t.pos };
      case '(': {
        const inner = this.parseExpr();
        const close = this.peek();
        if (close.type !== ')') this.fail(close, `expected ')' to close the '(' at position ${t.pos}, found ${describe(close)}`);
        this.next();
        return inner;
      }
      case 'function': {
        if (t.prefix !== '') this.prefixes.add(t.prefix);
        this.expect('(', "'('");
        const args: ExprAst[] = [];
        if (this.peek().type !== ')') {
          args.push(this.parseExpr());
          while (this.peek().type === ',') {
            this.next();
            args.push(this.parseExpr());
          }
        }
        const close = this.peek();
        if (close.type !== ')') {
          this.fail(close, `expected ',' or ')' in the arguments of ${t.value}() at position ${t.pos}, found ${describe(close)}`);
        }
        this.next();
        return { kind: 'call', name: t.value, prefix: t.prefix, local: t.local, args, pos: t.pos };
      }
      default:
        return this.fail(t, `expected an expression, found ${describe(t)}`);
    }
  }

  private parsePredicates(): ExprAst[] {
    const preds: ExprAst[] = [];
    while (this.peek().type === '[') {
      const open = this.next();
      preds.push(this.parseExpr());
      const close = this.peek();
      if (close.type !== ']') this.fail(close, `expected ']' to close the predicate at position ${open.pos}, found ${describe(close)}`);
      this.next();
    }
    return preds;
  }

  private parseRelativeSteps(steps: StepAst[]): StepAst[] {
    steps.push(this.parseStep());
    for (;;) {
      const t = this.peek();
      if (t.type !== 'operator' || (t.value !== '/' && t.value !== '//')) return steps;
      this.next();
      if (t.value === '//') steps.push(DESCENDANT_OR_SELF_NODE(t.pos));
      steps.push(this.parseStep());
    }
  }

  private parseStep(): StepAst {
    const t = this.peek();
    if (t.type === '.' || t.type === '..') {
      this.next();
      return { axis: t.type === '.' ? 'self' : 'parent', test: { kind: 'node' }, preds: [], pos: t.pos };
    }
    let axis: Axis = 'child';
    if (t.type === 'axis') {
      this.next();
      this.next(); // '::', guaranteed by the lexer
      axis = t.value as Axis;
    } else if (t.type === '@') {
      this.next();
      axis = 'attribute';
    }
    const test = this.parseNodeTest(t);
    return { axis, test, preds: this.parsePredicates(), pos: t.pos };
  }

  private parseNodeTest(stepStart: Token): NodeTestAst {
    const t = this.peek();
    if (t.type === 'name') {
      this.next();
      if (t.prefix !== '') this.prefixes.add(t.prefix);
      return { kind: 'name', prefix: t.prefix, local: t.local, pos: t.pos };
    }
    if (t.type === 'nodeType') {
      this.next();
      this.expect('(', "'('");
      let target: string | null = null;
      if (t.value === 'processing-instruction' && this.peek().type === 'literal') target = this.next().value;
      const close = this.peek();
      if (close.type !== ')') {
        const allowed = t.value === 'processing-instruction' ? 'a string literal or ' : '';
        this.fail(close, `expected ${allowed}')' in ${t.value}(), found ${describe(close)}`);
      }
      this.next();
      switch (t.value) {
        case 'node':
          return { kind: 'node' };
        case 'text':
          return { kind: 'text' };
        case 'comment':
          return { kind: 'comment' };
        default:
          return { kind: 'pi', target };
      }
    }
    const written = stepStart.type === 'axis' ? `'${stepStart.value}::'` : describe(stepStart);
    const after = stepStart === t ? '' : ` after ${written}`;
    return this.fail(t, `expected a node test (a name, '*', or a node type such as text())${after}, found ${describe(t)}`);
  }
}

/** Operators whose left-leaning chains (`a or b or c …`) the compiler flattens into one loop. */
export const FLATTENED_OPS: ReadonlySet<BinaryOp> = new Set(['or', 'and', '|']);

/** The operands of a chain of `op` (`a or b or c` → [a, b, c]) and the operators' positions, without recursion. */
export function chainOf(ast: Extract<ExprAst, { kind: 'binary' }>): { operands: ExprAst[]; positions: number[] } {
  const operands: ExprAst[] = [];
  const positions: number[] = [];
  let cur: ExprAst = ast;
  while (cur.kind === 'binary' && cur.op === ast.op) {
    operands.push(cur.right);
    positions.push(cur.pos);
    cur = cur.left;
  }
  operands.push(cur);
  operands.reverse();
  positions.reverse();
  return { operands, positions };
}

/**
 * The compiler and the code it produces recurse once per level of the
 * syntax tree; chains of arithmetic or comparison operators deepen the tree
 * without nesting parentheses (`1+1+1…`), so the tree's depth is checked
 * here, by an explicit walk.
 */
function checkDepth(parser: Parser, ast: ExprAst): void {
  const stack: Array<[ExprAst, number]> = [[ast, 1]];
  const push = (child: ExprAst, depth: number): void => {
    if (depth > MAX_XPATH_NESTING) parser.tooDeep(child);
    stack.push([child, depth]);
  };
  const pushSteps = (steps: readonly StepAst[], depth: number): void => {
    for (const step of steps) for (const pred of step.preds) push(pred, depth);
  };
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    switch (node.kind) {
      case 'binary':
        if (FLATTENED_OPS.has(node.op)) {
          for (const operand of chainOf(node).operands) push(operand, depth + 1);
        } else {
          push(node.left, depth + 1);
          push(node.right, depth + 1);
        }
        break;
      case 'negate':
        push(node.operand, depth + 1);
        break;
      case 'call':
        for (const arg of node.args) push(arg, depth + 1);
        break;
      case 'path':
        pushSteps(node.steps, depth + 1);
        break;
      case 'filter':
        push(node.primary, depth + 1);
        for (const pred of node.preds) push(pred, depth + 1);
        pushSteps(node.steps, depth + 1);
        break;
      default:
        break;
    }
  }
}

export function parseXPath(source: string): ParsedXPath {
  const parser = new Parser(source);
  const ast = parser.parseAll();
  checkDepth(parser, ast);
  return { source, ast, prefixes: [...parser.prefixes] };
}
