/**
 * Evaluates XPath on a tiny-xml tree and describes the result the way
 * scripts/xpath-oracle.py prints lxml's, so tests compare against results
 * recorded from lxml as literals.
 */
import type { DomNode } from '../../../src/dom/node.js';
import { evaluateXPath, type XPathContext, type XPathValue } from '../../../src/xpath/index.js';
import { describeNode, parseXml, rootElement } from './tiny-xml.js';

export type Described =
  | { nodes: string[] }
  | { string: string }
  | { number: number | 'NaN' | 'Infinity' | '-Infinity' | '-0' }
  | { boolean: boolean }
  | { error: string };

export function describeValue(v: XPathValue): Described {
  if (Array.isArray(v)) return { nodes: v.map(describeNode) };
  if (typeof v === 'string') return { string: v };
  if (typeof v === 'boolean') return { boolean: v };
  if (Number.isNaN(v)) return { number: 'NaN' };
  if (v === Infinity) return { number: 'Infinity' };
  if (v === -Infinity) return { number: '-Infinity' };
  if (Object.is(v, -0)) return { number: '-0' };
  return { number: v };
}

/** Evaluates from `node`; an error becomes `{ error: message }`. */
export function run(node: DomNode, expr: string, ctx?: XPathContext): Described {
  try {
    return describeValue(evaluateXPath(expr, node, ctx));
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** A document parsed once, queried from its root element as parsel's Selector does. */
export function onDocument(xml: string, ctx?: XPathContext): (expr: string) => Described {
  const root = rootElement(parseXml(xml));
  return (expr) => run(root, expr, ctx);
}
