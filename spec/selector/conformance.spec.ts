/**
 * Conformance of seine's Selector with parsel 1.7.
 *
 * Every case in spec/fixtures/selectors/cases.json was run against parsel
 * (lxml 4.9 / libxml2 2.9.14, cssselect 1.2) by
 * scripts/record-parsel-fixtures.py, which stored the answers in
 * expected.json. This file replays each case on seine and asserts the very
 * same answer, so it needs no Python. To add a case: append it to cases.json,
 * run `/usr/bin/python3 scripts/record-parsel-fixtures.py`, read the recorded
 * value, and commit both files.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { Selector, type SelectorList } from '../../src/selector/index.js';

type Pattern = string | { source?: string; js?: string; py?: string; flags?: string };
type XPathVars = Record<string, string | number | boolean>;

type Step =
  | ['css', string]
  | ['xpath', string, { vars?: XPathVars; namespaces?: Record<string, string> }?]
  | ['index', number]
  | ['registerNamespace', string, string]
  | ['removeNamespaces'];

type Extract =
  | 'getall'
  | 'get'
  | 'attrib'
  | 'repr'
  | 'length'
  | ['get', string]
  | ['re', Pattern]
  | ['reFirst', Pattern]
  | ['reFirst', Pattern, string];

interface ConformanceCase {
  id: string;
  /** The describe() title: the feature the case exercises. */
  group: string;
  type: 'html' | 'xml';
  /** Inline markup, or a file under spec/fixtures/selectors/docs/. */
  doc: string | { file: string };
  steps: Step[];
  extract: Extract;
  raises?: boolean;
  /** Why parsel's answer is what it is, where that is surprising. */
  note?: string;
}

type Outcome = { value: unknown } | { error: string };

const FIXTURES = new URL('../fixtures/selectors/', import.meta.url);

function readJson<T>(name: string): T {
  return JSON.parse(readFileSync(fileURLToPath(new URL(name, FIXTURES)), 'utf8')) as T;
}

const cases = readJson<ConformanceCase[]>('cases.json');
const expected = readJson<Record<string, Outcome>>('expected.json');

const docCache = new Map<string, string>();
function documentText(doc: ConformanceCase['doc']): string {
  if (typeof doc === 'string') return doc;
  let text = docCache.get(doc.file);
  if (text === undefined) {
    text = readFileSync(fileURLToPath(new URL(`docs/${doc.file}`, FIXTURES)), 'utf8');
    docCache.set(doc.file, text);
  }
  return text;
}

/** A string pattern goes to seine as a string (as parsel compiles it); an object becomes a RegExp. */
function toPattern(pattern: Pattern): RegExp | string {
  if (typeof pattern === 'string') return pattern;
  const source = pattern.js ?? pattern.source;
  if (source === undefined) throw new Error(`regex object without 'source' or 'js': ${JSON.stringify(pattern)}`);
  return new RegExp(source, pattern.flags ?? '');
}

function isList(current: Selector | SelectorList): current is SelectorList {
  return Array.isArray(current);
}

/**
 * parsel 1.7 prints `<Selector xpath='…' data='…'>`; docs/selectors.md fixes
 * seine's repr as `<Selector query='…' data='…'>` (parsel ≥ 1.8's wording).
 * That one word is the only difference: quoting, escaping and shortening are
 * Python's and must match.
 */
function seineRepr(parselRepr: string): string {
  return parselRepr.replace(/^<Selector xpath=/, '<Selector query=');
}

/** What parsel's exception class is called in seine. */
const SEINE_ERROR_NAME: Record<string, string> = {
  ValueError: 'XPathError',
  SelectorSyntaxError: 'CssError',
  ExpressionError: 'CssError',
};

interface Run {
  current: Selector | SelectorList;
  /** The last CSS or XPath query started: the one an error message must name. */
  lastQuery: string;
}

function runSteps(testCase: ConformanceCase, run: Run): void {
  const root = run.current as Selector;
  for (const step of testCase.steps) {
    const current = run.current;
    switch (step[0]) {
      case 'css':
        run.lastQuery = step[1];
        run.current = current.css(step[1]);
        break;
      case 'xpath': {
        run.lastQuery = step[1];
        const options = step[2];
        const namespaces = options?.namespaces;
        run.current = current.xpath(step[1], options?.vars, namespaces === undefined ? undefined : { namespaces });
        break;
      }
      case 'index': {
        if (!isList(current)) throw new Error(`case ${testCase.id}: index step applied to a single Selector`);
        const picked: Selector | undefined = current[step[1]];
        if (picked === undefined) {
          throw new Error(`list[${step[1]}] returned undefined on a list of ${current.length} instead of throwing an IndexError`);
        }
        run.current = picked;
        break;
      }
      case 'registerNamespace':
        root.registerNamespace(step[1], step[2]);
        break;
      case 'removeNamespaces':
        root.removeNamespaces();
        break;
    }
  }
}

function extract(current: Selector | SelectorList, how: Extract): unknown {
  if (how === 'getall') return current.getall();
  if (how === 'get') return current.get();
  if (how === 'attrib') return { ...current.attrib };
  if (how === 'length') return isList(current) ? current.length : 'length of a single Selector';
  if (how === 'repr') return isList(current) ? Array.from(current, (s) => String(s)) : String(current);
  const [kind, pattern, def] = how;
  if (kind === 'get') return isList(current) ? current.get(pattern) : current.get(pattern);
  const regex = toPattern(pattern);
  if (kind === 're') return current.re(regex);
  if (def === undefined) return current.reFirst(regex);
  return isList(current) ? current.reFirst(regex, def) : current.reFirst(regex, def);
}

function expectedValue(testCase: ConformanceCase, value: unknown): unknown {
  if (testCase.extract !== 'repr') return value;
  if (typeof value === 'string') return seineRepr(value);
  return (value as string[]).map(seineRepr);
}

/**
 * Cases where seine knowingly differs from parsel, with what seine gives
 * instead; docs/selectors.md lists them. Each still runs, against this value,
 * so a change in either direction shows up.
 */
const KNOWN_DEVIATIONS: Record<string, { because: string; seineGives: unknown }> = {
  'mal-cdata-in-html': {
    because: 'libxml2 reads `<![CDATA[` in HTML as text followed by a broken tag; seine keeps the section as a comment',
    seineGives: '<html><body><p><!--[CDATA[x<y]]-->z</p></body></html>',
  },
};

function runCase(testCase: ConformanceCase): void {
  const deviation = KNOWN_DEVIATIONS[testCase.id];
  const outcome = deviation === undefined ? expected[testCase.id] : { value: deviation.seineGives };
  if (outcome === undefined) {
    throw new Error(`no recorded answer for ${testCase.id}: run /usr/bin/python3 scripts/record-parsel-fixtures.py`);
  }
  const run: Run = { current: new Selector({ text: documentText(testCase.doc), type: testCase.type }), lastQuery: '' };

  if ('value' in outcome) {
    runSteps(testCase, run);
    expect(extract(run.current, testCase.extract)).toEqual(expectedValue(testCase, outcome.value));
    return;
  }

  let thrown: unknown;
  try {
    runSteps(testCase, run);
    extract(run.current, testCase.extract);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(Error);
  const error = thrown as Error;
  if (outcome.error === 'IndexError') {
    expect(String(error)).toContain('IndexError: list index out of range');
    return;
  }
  const name = SEINE_ERROR_NAME[outcome.error];
  if (name === undefined) throw new Error(`case ${testCase.id}: no seine error is mapped to parsel's ${outcome.error}`);
  expect({ name: error.name, namesQuery: error.message.includes(run.lastQuery) }).toEqual({ name, namesQuery: true });
}

const groups = new Map<string, ConformanceCase[]>();
for (const testCase of cases) {
  const group = groups.get(testCase.group) ?? [];
  group.push(testCase);
  groups.set(testCase.group, group);
}

describe('selector conformance fixtures', () => {
  it('have a recorded answer for every case and no answer without a case', () => {
    expect(Object.keys(expected).sort()).toEqual(cases.map((c) => c.id).sort());
  });
});

for (const [group, groupCases] of groups) {
  describe(group, () => {
    for (const testCase of groupCases) {
      it(testCase.id, () => runCase(testCase));
    }
  });
}
