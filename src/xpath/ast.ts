/** The parsed form of an XPath 1.0 expression; `pos` is always a 0-based offset into the source. */

export type Axis =
  | 'ancestor'
  | 'ancestor-or-self'
  | 'attribute'
  | 'child'
  | 'descendant'
  | 'descendant-or-self'
  | 'following'
  | 'following-sibling'
  | 'namespace'
  | 'parent'
  | 'preceding'
  | 'preceding-sibling'
  | 'self';

export type NodeTestAst =
  | { readonly kind: 'node' }
  | { readonly kind: 'text' }
  | { readonly kind: 'comment' }
  /** `processing-instruction()` (target null) or `processing-instruction('name')`. */
  | { readonly kind: 'pi'; readonly target: string | null }
  /** QName, `*` (local '*', prefix ''), or `prefix:*`; `pos` is where the name starts. */
  | { readonly kind: 'name'; readonly prefix: string; readonly local: string; readonly pos: number };

export interface StepAst {
  readonly axis: Axis;
  readonly test: NodeTestAst;
  readonly preds: readonly ExprAst[];
  readonly pos: number;
}

export type BinaryOp = 'or' | 'and' | '=' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | 'div' | 'mod' | '|';

export type ExprAst =
  | { readonly kind: 'number'; readonly value: number; readonly pos: number }
  | { readonly kind: 'literal'; readonly value: string; readonly pos: number }
  | { readonly kind: 'variable'; readonly name: string; readonly prefix: string; readonly pos: number }
  | {
      readonly kind: 'call';
      readonly name: string;
      readonly prefix: string;
      readonly local: string;
      readonly args: readonly ExprAst[];
      readonly pos: number;
    }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: ExprAst; readonly right: ExprAst; readonly pos: number }
  | { readonly kind: 'negate'; readonly operand: ExprAst; readonly pos: number }
  /** A location path; relative ones start at the context node, absolute ones at its root. */
  | { readonly kind: 'path'; readonly absolute: boolean; readonly steps: readonly StepAst[]; readonly pos: number }
  /** `primary[pred]…` optionally followed by `/steps` (a FilterExpr and the path after it). */
  | {
      readonly kind: 'filter';
      readonly primary: ExprAst;
      readonly preds: readonly ExprAst[];
      readonly steps: readonly StepAst[];
      readonly pos: number;
    };

export interface ParsedXPath {
  readonly source: string;
  readonly ast: ExprAst;
  /** Namespace prefixes the expression uses (name tests and function names), each once. */
  readonly prefixes: readonly string[];
}
