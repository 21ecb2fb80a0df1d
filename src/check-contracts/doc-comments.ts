/**
 * The doc comments of class methods in a TypeScript (or JavaScript) source
 * file. `seine check` reads contracts from them, as Scrapy reads a
 * callback's docstring; a function at run time has lost its comments (tsx
 * and tsc drop them), so they are read from the source text.
 *
 * A scanner, not a parser: it skips strings, template literals, regular
 * expressions and comments, follows braces to know which class body it is
 * in, and takes a `/** … *\/` comment that is directly followed by a member
 * (modifiers, a name, then `(`, `<`, `=` or `?`). The TypeScript compiler
 * would do this exactly but is 9 MB of JavaScript to load for one command;
 * this reads a 2,000-line file in about a millisecond.
 */

export interface MethodDoc {
  /** The text between `/**` and `*\/`, each line's leading ` * ` removed. */
  readonly doc: string;
  /** 1-based line of the member's name. */
  readonly line: number;
}

/** Class name → member name → its doc comment. Anonymous classes are left out. */
export type ClassDocs = Map<string, Map<string, MethodDoc>>;

const MODIFIERS = new Set(['public', 'private', 'protected', 'static', 'async', 'override', 'readonly', 'abstract', 'declare', 'accessor', 'get', 'set']);
// After these keywords a `/` starts a regular expression, not a division.
const REGEX_KEYWORDS = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
const IDENT_START = /[\p{L}\p{Nl}$_]/u;
const IDENT_PART = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_\u200c\u200d]/u;

type Scope = { kind: 'class'; name: string | null } | { kind: 'block' } | { kind: 'template' };

interface Token {
  readonly kind: 'ident' | 'punct' | 'string' | 'number' | 'regex' | 'template';
  readonly text: string;
  readonly line: number;
}

function cleanDoc(raw: string): string {
  return raw
    .split('\n')
    .map((line) => line.replace(/^\s*\*(?!\/)\s?/, '').trimEnd())
    .join('\n')
    .trim();
}

/** Scans `source` and returns the doc comment of every class member that has one. */
export function classMethodDocs(source: string): ClassDocs {
  const docs: ClassDocs = new Map();
  const scopes: Scope[] = [];
  let i = 0;
  let line = 1;
  let last: Token | null = null;
  // `class Name … {`: the name waits for the class body's brace.
  let pendingClass: { name: string | null; depth: number } | null = null;
  let parenDepth = 0;
  // A doc comment inside a class body, waiting for the member it documents.
  let pendingDoc: { doc: string; tokens: Token[] } | null = null;

  // Read through a function: TypeScript narrows `last` to null at the loop's top and misses emit()'s writes.
  const lastToken = (): Token | null => last;
  const top = (): Scope | undefined => scopes[scopes.length - 1];
  const inClassBody = (): Scope | undefined => {
    const scope = top();
    return scope?.kind === 'class' ? scope : undefined;
  };

  const emit = (token: Token): void => {
    last = token;
    if (pendingDoc === null) return;
    // Modifiers, a generator's `*`, then the name; then what follows a member's name.
    if (token.kind === 'ident' || token.kind === 'string' || token.text === '*') {
      pendingDoc.tokens.push(token);
      return;
    }
    const collected = pendingDoc.tokens;
    const name = collected[collected.length - 1];
    const leading = collected.slice(0, -1);
    const scope = inClassBody();
    if (
      name !== undefined && name.text !== '*' && ['(', '<', '=', '?', '!', ':'].includes(token.text)
      && leading.every((t) => (t.kind === 'ident' && MODIFIERS.has(t.text)) || t.text === '*')
      && scope?.kind === 'class' && scope.name !== null
    ) {
      const text = name.kind === 'string' ? name.text.slice(1, -1) : name.text;
      let members = docs.get(scope.name);
      if (members === undefined) docs.set(scope.name, (members = new Map()));
      if (!members.has(text)) members.set(text, { doc: pendingDoc.doc, line: name.line });
    }
    pendingDoc = null;
  };

  const regexAllowed = (): boolean => {
    const prev = lastToken();
    if (prev === null) return true;
    if (prev.kind === 'ident') return REGEX_KEYWORDS.has(prev.text);
    if (prev.kind === 'punct') return ![')', ']', '}'].includes(prev.text);
    return false;
  };

  /** Skips a quoted string from its opening quote; returns the index after the closing one. */
  const skipString = (quote: string): number => {
    let j = i + 1;
    while (j < source.length && source[j] !== quote) {
      if (source[j] === '\\') j++;
      else if (source[j] === '\n') break; // an unterminated string ends at the line's end
      j++;
    }
    return j + 1;
  };

  /** Skips template text from `from` up to the closing backtick or a `${`; returns [index after, ended]. */
  const skipTemplateText = (from: number): [number, boolean] => {
    let j = from;
    while (j < source.length) {
      const c = source[j]!;
      if (c === '\\') j += 2;
      else if (c === '`') return [j + 1, true];
      else if (c === '$' && source[j + 1] === '{') return [j + 2, false];
      else {
        if (c === '\n') line++;
        j++;
      }
    }
    return [j, true];
  };

  while (i < source.length) {
    const c = source[i]!;
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\ufeff' || c === '\u00a0') {
      i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end;
      const body = source.slice(i + 2, stop);
      const isDoc = body.startsWith('*') && !body.startsWith('**') && inClassBody() !== undefined;
      if (isDoc) pendingDoc = { doc: cleanDoc(body.slice(1)), tokens: [] };
      for (const ch of body) if (ch === '\n') line++;
      i = stop + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = skipString(c);
      emit({ kind: 'string', text: source.slice(i, end), line });
      i = end;
      continue;
    }
    if (c === '`') {
      const [end, ended] = skipTemplateText(i + 1);
      if (!ended) scopes.push({ kind: 'template' });
      emit({ kind: 'template', text: '`', line });
      i = end;
      continue;
    }
    if (c === '/' && regexAllowed()) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== '\n') {
        const r = source[j]!;
        if (r === '\\') j++;
        else if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
        j++;
      }
      j++;
      while (j < source.length && IDENT_PART.test(source[j]!)) j++;
      emit({ kind: 'regex', text: source.slice(i, j), line });
      i = j;
      continue;
    }
    if (IDENT_START.test(c) || c === '#') {
      let j = i + 1;
      while (j < source.length && IDENT_PART.test(source[j]!)) j++;
      const word = source.slice(i, j);
      const prev = lastToken();
      // `class` as a keyword, not a property name (`x.class`, `{ class: … }`).
      if (word === 'class' && !(prev !== null && prev.kind === 'punct' && prev.text === '.')) {
        pendingClass = { name: null, depth: parenDepth };
      } else if (pendingClass !== null && pendingClass.name === null && prev?.text === 'class') {
        if (word !== 'extends' && word !== 'implements') pendingClass.name = word;
      }
      emit({ kind: 'ident', text: word, line });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < source.length && /[0-9a-zA-Z_.]/.test(source[j]!)) j++;
      emit({ kind: 'number', text: source.slice(i, j), line });
      i = j;
      continue;
    }
    // Punctuation.
    if (c === '{') {
      if (pendingClass !== null && parenDepth === pendingClass.depth) {
        scopes.push({ kind: 'class', name: pendingClass.name });
        pendingClass = null;
        pendingDoc = null;
        emit({ kind: 'punct', text: c, line });
      } else {
        scopes.push({ kind: 'block' });
        emit({ kind: 'punct', text: c, line });
      }
      i++;
      continue;
    }
    if (c === '}') {
      const scope = scopes.pop();
      if (scope?.kind === 'template') {
        // The end of a `${…}` in a template literal: back to the template's text.
        const [end, ended] = skipTemplateText(i + 1);
        if (!ended) scopes.push({ kind: 'template' });
        emit({ kind: 'template', text: '`', line });
        i = end;
        continue;
      }
      emit({ kind: 'punct', text: c, line });
      i++;
      continue;
    }
    // `{ class: … }` or `x.class(`: not a class declaration after all.
    if (pendingClass !== null && pendingClass.name === null && lastToken()?.text === 'class') pendingClass = null;
    if (c === '(') parenDepth++;
    if (c === ')') parenDepth = Math.max(0, parenDepth - 1);
    if (c === ';' && pendingClass !== null && parenDepth === pendingClass.depth) pendingClass = null;
    emit({ kind: 'punct', text: c, line });
    i++;
  }
  return docs;
}
