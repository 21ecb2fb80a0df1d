/**
 * Parses a group of CSS selectors with cssselect 1.2's grammar, quirks
 * included, because the goal is parsel's behaviour and not the CSS spec's:
 *
 * - `:is(a,b)` is an error (after a comma one more token is consumed), while
 *   `:is(a, b)` works;
 * - `:not()` takes one compound selector, and none of `:not()`, `:is()`,
 *   `:where()` may contain `:not()`;
 * - `:has()` glues its argument's names, strings, numbers, '.' and '*' into
 *   one string and parses that again (so `:has(> "b c")` means `> b c`);
 * - `:scope` without a type is only allowed at the start of a selector;
 * - `.x|a` replaces everything before the '|' with the element `a`.
 */
import type { AttribNode, AttribOperator, ParsedSelector, PseudoElement, Tree } from './ast.js';
import { CssFailure, printable } from './css-error.js';
import { TokenStream, describeToken, isDelim, type Token } from './tokenizer.js';

// cssselect's fast paths for `p`, `p#id` and `p.cls`. The tokenizer would build
// the same trees; taking the same route as cssselect for every input is the
// cheaper way to be sure of that.
const ELEMENT_ONLY_RE = /^[ \t\r\n\f]*([a-zA-Z]+)[ \t\r\n\f]*$/;
const ID_ONLY_RE = /^[ \t\r\n\f]*([a-zA-Z]*)#([a-zA-Z0-9_-]+)[ \t\r\n\f]*$/;
const CLASS_ONLY_RE = /^[ \t\r\n\f]*([a-zA-Z]*)\.([a-zA-Z][a-zA-Z0-9_-]*)[ \t\r\n\f]*$/;

/** CSS 2.1 pseudo-elements that may still be written with a single colon. */
const LEGACY_PSEUDO_ELEMENTS = new Set(['first-line', 'first-letter', 'before', 'after']);

/** Lower-cases A-Z only, as cssselect does for pseudo-class and function names. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

function element(name: string | null): Tree {
  return { kind: 'element', namespace: null, element: name === '' ? null : name };
}

export function parseSelectorGroup(text: string): ParsedSelector[] {
  let m = ELEMENT_ONLY_RE.exec(text);
  if (m !== null) return [{ tree: element(m[1]!), pseudoElement: null }];
  m = ID_ONLY_RE.exec(text);
  if (m !== null) return [{ tree: { kind: 'hash', selector: element(m[1]!), id: m[2]! }, pseudoElement: null }];
  m = CLASS_ONLY_RE.exec(text);
  if (m !== null) {
    return [{ tree: { kind: 'class', selector: element(m[1]!), className: m[2]! }, pseudoElement: null }];
  }
  return new SelectorParser(text).parseGroup();
}

function describePseudoElement(pe: PseudoElement): string {
  return pe.args === null ? `::${pe.name}` : `::${pe.name}()`;
}

/**
 * Most simple selectors (`#id`, `.class`, `[attr]`, `:pseudo`, and the
 * selectors inside `:not()`, `:is()`, `:where()`, `:matches()`) one
 * compound selector may combine. cssselect writes each as one more level of
 * parentheses around the XPath condition, so `.a` × 100,000 would become an
 * XPath nested 100,000 deep; 100 keeps the XPath far inside its own limit
 * (MAX_XPATH_NESTING, 256) and the parser's recursion shallow. Combinators
 * (`div div …`) and selector groups (`a, b, …`) have no limit: they become
 * flat XPath paths and unions.
 */
export const MAX_CSS_COMPOUND = 100;

class SelectorParser {
  private readonly stream: TokenStream;
  /** Simple selectors in the compound being parsed, nested arguments included. */
  private parts = 0;

  constructor(private readonly text: string) {
    this.stream = new TokenStream(text);
  }

  parseGroup(): ParsedSelector[] {
    const stream = this.stream;
    const selectors: ParsedSelector[] = [];
    stream.skipWhitespace();
    for (;;) {
      selectors.push(this.parseSelector());
      if (!isDelim(stream.peek(), ',')) return selectors;
      stream.next();
      stream.skipWhitespace();
    }
  }

  private parseSelector(): ParsedSelector {
    const stream = this.stream;
    this.parts = 0;
    let [tree, pseudoElement] = this.parseSimpleSelector(false);
    for (;;) {
      stream.skipWhitespace();
      const peek = stream.peek();
      if (peek.type === 'EOF' || isDelim(peek, ',')) break;
      if (pseudoElement !== null) throw notAtEnd(pseudoElement, peek);
      let combinator: ' ' | '>' | '+' | '~' = ' ';
      if (isDelim(peek, '+', '>', '~')) {
        combinator = stream.next().value as '>' | '+' | '~';
        stream.skipWhitespace();
      }
      this.parts = 0;
      const [next, nextPseudoElement] = this.parseSimpleSelector(false);
      pseudoElement = nextPseudoElement;
      tree = { kind: 'combined', selector: tree, combinator, subselector: next };
    }
    return { tree, pseudoElement };
  }

  private parseSimpleSelector(insideNegation: boolean): [Tree, PseudoElement | null] {
    const stream = this.stream;
    stream.skipWhitespace();
    const selectorStart = stream.used.length;
    let peek = stream.peek();
    let namespace: string | null = null;
    let name: string | null = null;
    if (peek.type === 'IDENT' || isDelim(peek, '*')) {
      const first = stream.next();
      const firstName = first.type === 'IDENT' ? first.value : null;
      if (isDelim(stream.peek(), '|')) {
        stream.next();
        namespace = firstName;
        name = stream.nextIdentOrStar("an element name or '*' after '|'");
      } else {
        name = firstName;
      }
    }
    let result: Tree = { kind: 'element', namespace, element: name };
    let pseudoElement: PseudoElement | null = null;
    for (;;) {
      peek = stream.peek();
      if (
        peek.type === 'S' ||
        peek.type === 'EOF' ||
        isDelim(peek, ',', '+', '>', '~') ||
        (insideNegation && isDelim(peek, ')'))
      ) {
        break;
      }
      if (pseudoElement !== null) throw notAtEnd(pseudoElement, peek);
      this.countPart(peek);
      if (peek.type === 'HASH') {
        result = { kind: 'hash', selector: result, id: stream.next().value };
      } else if (isDelim(peek, '.')) {
        stream.next();
        result = { kind: 'class', selector: result, className: stream.nextIdent("a class name after '.'") };
      } else if (isDelim(peek, '|')) {
        stream.next();
        result = { kind: 'element', namespace: null, element: stream.nextIdent("an element name after '|'") };
      } else if (isDelim(peek, '[')) {
        stream.next();
        result = this.parseAttrib(result);
      } else if (isDelim(peek, ':')) {
        const colon = stream.next();
        if (isDelim(stream.peek(), ':')) {
          stream.next();
          const peName = asciiLower(stream.nextIdent("a pseudo-element name after '::'"));
          let args: Token[] | null = null;
          if (isDelim(stream.peek(), '(')) {
            stream.next();
            args = this.parseArguments();
          }
          pseudoElement = { name: peName, args, pos: colon.pos };
          continue;
        }
        const ident = stream.nextIdent("a pseudo-class name after ':'");
        const lowered = ident.toLowerCase();
        if (LEGACY_PSEUDO_ELEMENTS.has(lowered)) {
          pseudoElement = { name: asciiLower(ident), args: null, pos: colon.pos };
          continue;
        }
        if (!isDelim(stream.peek(), '(')) {
          result = { kind: 'pseudo', selector: result, ident: asciiLower(ident), pos: colon.pos };
          this.checkScopePlacement(result, colon);
          continue;
        }
        stream.next();
        stream.skipWhitespace();
        result = this.parseFunctional(result, ident, lowered, colon, insideNegation);
      } else {
        throw new CssFailure(peek.pos, `expected a selector, got ${describeToken(peek)}`);
      }
    }
    if (stream.used.length === selectorStart) {
      const bad = stream.peek();
      throw new CssFailure(bad.pos, `expected a selector, got ${describeToken(bad)}`);
    }
    return [result, pseudoElement];
  }

  private countPart(at: Token): void {
    if (++this.parts > MAX_CSS_COMPOUND) {
      throw new CssFailure(
        at.pos,
        `a compound selector may combine at most ${MAX_CSS_COMPOUND} simple selectors (#id, .class, [attribute], :pseudo-class, ` +
          'counting those inside :not(), :is() and :where()), because each nests its XPath condition one level deeper; split the query',
      );
    }
  }

  /** After `:name(` and its whitespace. */
  private parseFunctional(result: Tree, ident: string, lowered: string, colon: Token, insideNegation: boolean): Tree {
    const stream = this.stream;
    if (lowered === 'not') {
      if (insideNegation) {
        throw new CssFailure(colon.pos, ':not() cannot be nested inside :not(), :is(), :matches() or :where()');
      }
      const [argument, argumentPseudoElement] = this.parseSimpleSelector(true);
      const next = stream.next();
      if (argumentPseudoElement !== null) {
        throw new CssFailure(next.pos, `pseudo-element ${describePseudoElement(argumentPseudoElement)} is not allowed inside :not()`);
      }
      if (!isDelim(next, ')')) {
        const hint = isDelim(next, ',') || next.type === 'S' ? "; :not() takes one compound selector, so chain them: ':not(.a):not(.b)'" : '';
        throw new CssFailure(next.pos, `expected ')' to close :not(), got ${describeToken(next)}${hint}`);
      }
      return { kind: 'negation', selector: result, subselector: argument };
    }
    if (lowered === 'has') return this.parseRelation(result);
    if (lowered === 'matches' || lowered === 'is' || lowered === 'where') {
      return { kind: 'matching', selector: result, selectorList: this.parseSelectorArguments(`:${lowered}()`) };
    }
    return { kind: 'function', selector: result, name: asciiLower(ident), args: this.parseArguments(), pos: colon.pos };
  }

  private checkScopePlacement(result: Tree, colon: Token): void {
    if (result.kind !== 'pseudo' || result.ident !== 'scope') return;
    const sel = result.selector;
    if (sel.kind !== 'element' || sel.namespace !== null || sel.element !== null) return;
    const used = this.stream.used;
    const n = used.length;
    const atStart =
      n === 2 ||
      (n === 3 && used[0]!.type === 'S') ||
      (n >= 3 && isDelim(used[n - 3]!, ',')) ||
      (n >= 4 && used[n - 3]!.type === 'S' && isDelim(used[n - 4]!, ','));
    if (!atStart) {
      throw new CssFailure(colon.pos, ':scope is only allowed at the start of a selector (as in \':scope > div\')');
    }
  }

  private parseArguments(): Token[] {
    const stream = this.stream;
    const args: Token[] = [];
    for (;;) {
      stream.skipWhitespace();
      const next = stream.next();
      if (next.type === 'IDENT' || next.type === 'STRING' || next.type === 'NUMBER' || isDelim(next, '+', '-')) {
        args.push(next);
      } else if (isDelim(next, ')')) {
        return args;
      } else {
        throw new CssFailure(
          next.pos,
          `expected an argument (a name, string, number, '+' or '-') or ')', got ${describeToken(next)}`,
        );
      }
    }
  }

  private parseRelation(result: Tree): Tree {
    const stream = this.stream;
    stream.skipWhitespace();
    let next = stream.next();
    let combinator = ' ';
    let combinatorPos = next.pos;
    if (isDelim(next, '+', '-', '>', '~')) {
      combinator = next.value;
      stream.skipWhitespace();
      next = stream.next();
    }
    const argStart = next.pos;
    let glued = '';
    for (;;) {
      if (next.type === 'IDENT' || next.type === 'STRING' || next.type === 'NUMBER' || isDelim(next, '.', '*')) {
        glued += next.value;
      } else if (isDelim(next, ')')) {
        return {
          kind: 'relation',
          selector: result,
          combinator,
          combinatorPos,
          subselector: this.parseGlued(glued, argStart, next.pos),
        };
      } else {
        throw new CssFailure(
          next.pos,
          `:has() accepts one combinator and then only names, strings, numbers, '.' and '*', got ${describeToken(next)}`,
        );
      }
      next = stream.next();
    }
  }

  /**
   * Parses the glued `:has()` argument on its own. A failure's position maps
   * back into the query when the glued text is the source text verbatim;
   * otherwise it points at the argument's start.
   */
  private parseGlued(glued: string, argStart: number, argEnd: number): ParsedSelector {
    try {
      return parseSelectorGroup(glued)[0]!;
    } catch (err) {
      if (!(err instanceof CssFailure)) throw err;
      const verbatim = this.text.slice(argStart, argEnd) === glued;
      const pos = verbatim && err.pos !== null ? argStart + err.pos : argStart;
      throw new CssFailure(pos, `in the :has() argument '${printable(glued)}': ${err.reason}`);
    }
  }

  private parseSelectorArguments(fn: string): Tree[] {
    const stream = this.stream;
    const list: Tree[] = [];
    let swallowed: Token | null = null;
    for (;;) {
      this.countPart(stream.peek());
      const [tree, pseudoElement] = this.parseArgumentSelector(fn, swallowed);
      if (pseudoElement !== null) {
        throw new CssFailure(pseudoElement.pos, `pseudo-element ${describePseudoElement(pseudoElement)} is not allowed inside ${fn}`);
      }
      stream.skipWhitespace();
      const next = stream.next();
      if (next.type === 'EOF' || isDelim(next, ',')) {
        // cssselect consumes one more token here, whatever it is.
        swallowed = stream.next();
        stream.skipWhitespace();
        list.push(tree);
      } else if (isDelim(next, ')')) {
        list.push(tree);
        return list;
      } else {
        throw new CssFailure(next.pos, `expected ',' or ')' in ${fn}, got ${describeToken(next)}`);
      }
    }
  }

  /**
   * One selector of an :is() list. When the comma before it was not followed
   * by whitespace, cssselect has swallowed the first token of this selector:
   * a failure then gets a hint, since `:is(a,b)` looks valid to anyone.
   */
  private parseArgumentSelector(fn: string, swallowed: Token | null): [Tree, PseudoElement | null] {
    if (swallowed === null || swallowed.type === 'S') return this.parseSimpleSelector(true);
    try {
      return this.parseSimpleSelector(true);
    } catch (err) {
      if (!(err instanceof CssFailure)) throw err;
      throw new CssFailure(err.pos, `${err.reason} (parsel needs a space after each ',' in ${fn}: write '${fn.slice(0, -1)}a, b)')`);
    }
  }

  private parseAttrib(selector: Tree): AttribNode {
    const stream = this.stream;
    stream.skipWhitespace();
    let attrib = stream.nextIdentOrStar("an attribute name or '*'");
    if (attrib === null && !isDelim(stream.peek(), '|')) {
      const bad = stream.peek();
      throw new CssFailure(bad.pos, `expected '|' after '*' in an attribute selector, got ${describeToken(bad)}`);
    }
    let namespace: string | null = null;
    let operator: AttribOperator | null = null;
    if (isDelim(stream.peek(), '|')) {
      stream.next();
      if (isDelim(stream.peek(), '=')) {
        stream.next();
        operator = '|=';
      } else {
        namespace = attrib;
        attrib = stream.nextIdent("an attribute name after '|'");
      }
    }
    if (operator === null) {
      stream.skipWhitespace();
      const next = stream.next();
      if (isDelim(next, ']')) return { kind: 'attrib', selector, namespace, attrib, operator: 'exists', value: null };
      if (isDelim(next, '=')) {
        operator = '=';
      } else if (isDelim(next, '^', '$', '*', '~', '|', '!') && isDelim(stream.peek(), '=')) {
        operator = `${next.value}=` as AttribOperator;
        stream.next();
      } else {
        throw new CssFailure(
          next.pos,
          `expected an attribute operator (=, ~=, |=, ^=, $=, *=, !=) or ']', got ${describeToken(next)}`,
        );
      }
    }
    stream.skipWhitespace();
    const value = stream.next();
    if (value.type !== 'IDENT' && value.type !== 'STRING') {
      throw new CssFailure(value.pos, `expected a name or a quoted string as the attribute value, got ${describeToken(value)}`);
    }
    stream.skipWhitespace();
    const close = stream.next();
    if (!isDelim(close, ']')) {
      throw new CssFailure(close.pos, `expected ']' to close the attribute selector, got ${describeToken(close)}`);
    }
    return { kind: 'attrib', selector, namespace, attrib, operator, value: value.value };
  }
}

function notAtEnd(pseudoElement: PseudoElement, next: Token): CssFailure {
  return new CssFailure(
    next.pos,
    `pseudo-element ${describePseudoElement(pseudoElement)} must be at the end of the selector, got ${describeToken(next)} after it`,
  );
}
