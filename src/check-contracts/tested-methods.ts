/**
 * Which of a spider's methods `seine check` tests, and with which contract
 * lines: Scrapy tests every method whose docstring has `@…` lines; here the
 * doc comments come from the source files (see doc-comments.ts), looked up
 * along the spider's class chain so that an inherited callback keeps its
 * contracts and an overriding one without a comment has none.
 */
import { readFileSync } from 'node:fs';
import { spiderClassName } from '../contracts/spider-brand.js';
import { classMethodDocs, type ClassDocs, type MethodDoc } from './doc-comments.js';

export interface ContractLine {
  readonly name: string;
  /** The words after the name; `['']` when there are none (as Scrapy splits them). */
  readonly args: readonly string[];
}

export interface TestedMethod {
  readonly name: string;
  readonly lines: readonly ContractLine[];
}

// JSDoc's own tags: left alone in a tested method's comment instead of being read as unknown contracts.
const JSDOC_TAGS = new Set([
  'param', 'arg', 'argument', 'return', 'throws', 'exception', 'example', 'see', 'link', 'deprecated', 'since', 'remarks',
  'todo', 'internal', 'override', 'async', 'generator', 'yields', 'yield', 'type', 'typedef', 'template', 'public',
  'private', 'protected', 'readonly', 'author', 'version', 'default', 'defaultValue', 'privateRemarks', 'beta', 'alpha',
  'experimental', 'inheritDoc', 'label', 'packageDocumentation', 'sealed', 'virtual', 'eventProperty', 'fires', 'event',
  'summary', 'description', 'note', 'typeParam',
]);
// `@returns` is also JSDoc's; it is a contract only when it counts items or requests.
const RETURNS_CONTRACT = /^(item|items|request|requests)$/;

/** The `@name args` lines of a doc comment, as Scrapy's extract_contracts reads them. */
export function contractLines(doc: string): ContractLine[] {
  const lines: ContractLine[] = [];
  for (const raw of doc.split('\n')) {
    const match = /^@(\w+)\s*(.*)$/.exec(raw.trim());
    if (match === null) continue;
    lines.push({ name: match[1]!, args: match[2]!.trim().split(/\s+/) });
  }
  return lines;
}

/** True when the comment asks for a check: a `@url` line, a known contract, or `@returns items|requests`. */
function asksForCheck(lines: readonly ContractLine[], known: ReadonlySet<string>): boolean {
  return lines.some((line) => {
    if (line.name === 'returns') return RETURNS_CONTRACT.test(line.args[0] ?? '');
    return line.name === 'url' || (known.has(line.name) && !JSDOC_TAGS.has(line.name));
  });
}

/** The lines of a tested method that stand for contracts: JSDoc's own tags (and its `@returns {Type}`) are left out. */
function contractsOf(lines: readonly ContractLine[], known: ReadonlySet<string>): ContractLine[] {
  return lines.filter((line) => {
    if (line.name === 'returns') return !/^\{/.test(line.args[0] ?? '');
    return known.has(line.name) || !JSDOC_TAGS.has(line.name);
  });
}

/**
 * The doc comments of the classes in a set of source files, read on demand:
 * the files are scanned in the order given until the class is found, so a
 * spider's own file answers first and the rest are read only for base
 * classes declared elsewhere.
 */
export class SourceDocs {
  readonly #files: readonly string[];
  #scanned = 0;
  readonly #classes = new Map<string, Map<string, MethodDoc>>();

  constructor(files: readonly string[]) {
    this.#files = files;
  }

  docsOf(className: string): ReadonlyMap<string, MethodDoc> | undefined {
    while (!this.#classes.has(className) && this.#scanned < this.#files.length) {
      const file = this.#files[this.#scanned++]!;
      let docs: ClassDocs;
      try {
        docs = classMethodDocs(readFileSync(file, 'utf8'));
      } catch {
        continue; // unreadable: its classes have no contracts
      }
      for (const [name, members] of docs) if (!this.#classes.has(name)) this.#classes.set(name, members);
    }
    return this.#classes.get(className);
  }
}

/**
 * The spider's tested methods, sorted by name (Scrapy lists them as
 * getmembers does). For each method name the class that defines it, nearest
 * first, supplies the comment.
 */
export function testedMethods(spiderClass: Function, sources: SourceDocs, knownContracts: ReadonlySet<string>): TestedMethod[] {
  const chain: Function[] = [];
  for (let cls: unknown = spiderClass; typeof cls === 'function' && cls !== Function.prototype; cls = Object.getPrototypeOf(cls)) chain.push(cls);
  const decided = new Map<string, MethodDoc | null>();
  for (const cls of chain) {
    // The declared identifier, also of a spider whose `static name` hides it from `.name`; '' for an anonymous class.
    const className = spiderClassName(cls);
    const docs = className === '' ? undefined : sources.docsOf(className);
    for (const [name, doc] of docs ?? []) if (!decided.has(name)) decided.set(name, doc);
    // A method this class defines without a comment hides the comment of the one it overrides.
    for (const name of Object.getOwnPropertyNames(cls.prototype ?? {})) if (!decided.has(name)) decided.set(name, null);
  }
  const tested: TestedMethod[] = [];
  for (const [name, doc] of decided) {
    if (doc === null || name === 'constructor') continue;
    const lines = contractLines(doc.doc);
    if (asksForCheck(lines, knownContracts)) tested.push({ name, lines: contractsOf(lines, knownContracts) });
  }
  return tested.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
