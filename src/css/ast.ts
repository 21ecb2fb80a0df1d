/**
 * Parsed CSS selectors, one node kind per construct cssselect 1.2 knows.
 * Each compound part wraps the selector it qualifies (`a.b` is a class node
 * around an element node), as cssselect builds them; the translator relies on
 * that nesting order.
 */
import type { Token } from './tokenizer.js';

export type Tree =
  | ElementNode
  | HashNode
  | ClassNode
  | FunctionNode
  | PseudoNode
  | AttribNode
  | NegationNode
  | RelationNode
  | MatchingNode
  | CombinedNode;

/** `ns|name`; null element is `*`, null namespace is "no prefix written". */
export interface ElementNode {
  readonly kind: 'element';
  readonly namespace: string | null;
  readonly element: string | null;
}

export interface HashNode {
  readonly kind: 'hash';
  readonly selector: Tree;
  readonly id: string;
}

export interface ClassNode {
  readonly kind: 'class';
  readonly selector: Tree;
  readonly className: string;
}

/** `:name(arguments)`: name ASCII-lower-cased, arguments as raw tokens. */
export interface FunctionNode {
  readonly kind: 'function';
  readonly selector: Tree;
  readonly name: string;
  readonly args: readonly Token[];
  readonly pos: number;
}

/** `:name`, ASCII-lower-cased. */
export interface PseudoNode {
  readonly kind: 'pseudo';
  readonly selector: Tree;
  readonly ident: string;
  readonly pos: number;
}

export type AttribOperator = 'exists' | '=' | '~=' | '|=' | '^=' | '$=' | '*=' | '!=';

export interface AttribNode {
  readonly kind: 'attrib';
  readonly selector: Tree;
  readonly namespace: string | null;
  /** null only for `[*|=x]`, which cssselect parses but cannot translate. */
  readonly attrib: string | null;
  readonly operator: AttribOperator;
  /** null for `exists`. */
  readonly value: string | null;
}

export interface NegationNode {
  readonly kind: 'negation';
  readonly selector: Tree;
  readonly subselector: Tree;
}

/** `:has(...)`; combinator is ' ', '>', '+', '~' or, as cssselect allows, '-'. */
export interface RelationNode {
  readonly kind: 'relation';
  readonly selector: Tree;
  readonly combinator: string;
  readonly combinatorPos: number;
  readonly subselector: ParsedSelector;
}

/** `:is()`, `:matches()` and `:where()`: they translate identically. */
export interface MatchingNode {
  readonly kind: 'matching';
  readonly selector: Tree;
  readonly selectorList: readonly Tree[];
}

export interface CombinedNode {
  readonly kind: 'combined';
  readonly selector: Tree;
  readonly combinator: ' ' | '>' | '+' | '~';
  readonly subselector: Tree;
}

/** `::name` or `::name(arguments)`; the name ASCII-lower-cased. */
export interface PseudoElement {
  readonly name: string;
  /** null for a simple pseudo-element. */
  readonly args: readonly Token[] | null;
  readonly pos: number;
}

export interface ParsedSelector {
  readonly tree: Tree;
  readonly pseudoElement: PseudoElement | null;
}
