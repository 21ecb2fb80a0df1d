/**
 * The XPath expression under construction while a selector is translated:
 * `path` + `element` + `[condition]`, built up the way cssselect builds it so
 * that the final string is byte-identical to parsel's. `textnode` and
 * `attribute` carry parsel's `::text` and `::attr(name)` pseudo-elements.
 */

// Python's `$` also matches before one final '\n', hence the `\n?`.
const SAFE_NAME_RE = /^[a-zA-Z_][a-zA-Z0-9_.-]*\n?$/;

/** Whether a name can be written as an XPath name test as it is. */
export function isSafeName(name: string): boolean {
  return SAFE_NAME_RE.test(name);
}

/**
 * An XPath 1.0 string literal for any string: quoted with ' or ", or, when it
 * holds both, a concat() of runs that each avoid one kind of quote.
 */
export function xpathLiteral(text: string): string {
  if (!text.includes("'")) return `'${text}'`;
  if (!text.includes('"')) return `"${text}"`;
  const parts = text
    .split(/('+)/)
    .filter((part) => part !== '')
    .map((part) => (part.includes("'") ? `"${part}"` : `'${part}'`));
  return `concat(${parts.join(',')})`;
}

export class XPathExpr {
  path: string;
  element: string;
  condition: string;
  textnode = false;
  attribute: string | null = null;

  constructor(element = '*', path = '', condition = '') {
    this.path = path;
    this.element = element;
    this.condition = condition;
  }

  private base(): string {
    const path = this.path + this.element;
    return this.condition === '' ? path : `${path}[${this.condition}]`;
  }

  toString(): string {
    let path = this.base();
    if (this.textnode) {
      if (path === '*') path = 'text()';
      else if (path.endsWith('::*/*')) path = `${path.slice(0, -3)}text()`;
      else path += '/text()';
    }
    if (this.attribute !== null) {
      if (path.endsWith('::*/*')) path = path.slice(0, -2);
      path += `/@${this.attribute}`;
    }
    return path;
  }

  addCondition(condition: string, conjunction: 'and' | 'or' = 'and'): this {
    this.condition = this.condition === '' ? condition : `(${this.condition}) ${conjunction} (${condition})`;
    return this;
  }

  /** Moves the element name into the condition, leaving `*` as the node test. */
  addNameTest(): void {
    if (this.element === '*') return;
    this.addCondition(`name() = ${xpathLiteral(this.element)}`);
    this.element = '*';
  }

  /**
   * Appends `other` after `combiner`. With `hasInnerCondition`, other's
   * condition stays attached to its element (inside `closing`); otherwise it
   * replaces this expression's condition.
   */
  join(combiner: string, other: XPathExpr, closing = '', hasInnerCondition = false): this {
    let path = this.toString() + combiner;
    if (other.path !== '*/') path += other.path;
    this.path = path;
    if (!hasInnerCondition) {
      this.element = other.element + closing;
      this.condition = other.condition;
    } else {
      this.element = other.element;
      if (other.condition !== '') this.element += `[${other.condition}]`;
      this.element += closing;
      // This expression's own condition is kept and so written twice; cssselect does the same.
    }
    this.textnode = other.textnode;
    this.attribute = other.attribute;
    return this;
  }
}
