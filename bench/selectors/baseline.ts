/**
 * --baseline: the alternatives seine did not build on, timed on the listing
 * set with the same loop, so docs/performance.md can show why seine has its
 * own tree and XPath engine (docs/dependencies.md: linkedom's parse alone
 * costs about parsel's whole parse + extract).
 *
 * linkedom and xpath are imported by variable name so that their type
 * declarations stay out of the program: xpath.d.ts pulls in lib "dom",
 * whose globals would change how everyone else's code type-checks. The
 * small interfaces below are all the benchmark touches.
 */

import { parseDocument } from 'htmlparser2';
import type { PageSet } from './page-sets.js';
import type { ListingQueries } from './queries.js';
import type { BaselineRow } from './report.js';
import { errorMessage } from './results.js';
import type { PageWork, TimingOptions } from './timing.js';
import { timed } from './timing.js';

interface LdNode {
  nodeType: number;
  nodeValue: string | null;
  /** Attr nodes carry their text here; linkedom leaves their nodeValue null. */
  value?: string;
  textContent: string | null;
  getAttribute?(name: string): string | null;
  querySelector(selector: string): LdNode | null;
  querySelectorAll(selector: string): Iterable<LdNode>;
}
interface LdDocument extends LdNode {
  normalize(): void;
}
interface LinkedomModule {
  DOMParser: new () => { parseFromString(html: string, type: 'text/html'): LdDocument };
}
interface XPathExpression {
  select(options: { node: LdNode; isHtml: boolean }): LdNode[];
}
interface XPathModule {
  parse(expression: string): XPathExpression;
}

const LINKEDOM = 'linkedom';
const XPATH = 'xpath';

function nodeText(node: LdNode): string {
  return node.value ?? node.nodeValue ?? '';
}

/** Any DOCTYPE makes xpath.js over linkedom return nothing (docs/dependencies.md), so it goes. */
function withoutDoctype(html: string): string {
  return html.replace(/^\s*<!DOCTYPE[^>]*>/i, '');
}

function xpathWork(ld: LinkedomModule, xp: XPathModule, listing: ListingQueries): PageWork {
  // Expressions parsed once: caching saves only 1–2 % (docs/dependencies.md), but it is what a fair user would do.
  const entries = xp.parse(listing.entries.xpath);
  const fields = listing.fields.map((f) => ({ take: f.take, expr: xp.parse(f.xpath) }));
  const links = xp.parse(listing.links.xpath);
  return (html) => {
    const doc = new ld.DOMParser().parseFromString(withoutDoctype(html), 'text/html');
    doc.normalize(); // quirk 4: text is split at every entity until normalised
    let count = 0;
    for (const entry of entries.select({ node: doc, isHtml: true })) {
      for (const field of fields) {
        const found = field.expr.select({ node: entry, isHtml: true }); // quirk 1: name tests need isHtml
        const strings = field.take === 'get' ? found.slice(0, 1).map(nodeText) : found.map(nodeText);
        count += strings.length;
      }
    }
    count += links.select({ node: doc, isHtml: true }).map(nodeText).length;
    return count;
  };
}

/** The same extraction through the DOM API a linkedom user would write (CSS has no ::text, so textContent). */
function querySelectorWork(ld: LinkedomModule, listing: ListingQueries): PageWork {
  const plain = (css: string) => css.replace(/::(text|attr\(([^)]+)\))$/, '');
  const attrOf = (css: string) => /::attr\(([^)]+)\)$/.exec(css)?.[1] ?? null;
  const fields = listing.fields.map((f) => ({ take: f.take, css: plain(f.css), attr: attrOf(f.css) }));
  const value = (node: LdNode, attr: string | null) => (attr === null ? node.textContent : (node.getAttribute?.(attr) ?? null));
  const links = { css: plain(listing.links.css), attr: attrOf(listing.links.css) };
  return (html) => {
    const doc = new ld.DOMParser().parseFromString(html, 'text/html');
    let count = 0;
    for (const entry of doc.querySelectorAll(plain(listing.entries.css))) {
      for (const field of fields) {
        if (field.take === 'get') {
          const node = entry.querySelector(field.css);
          if (node !== null && value(node, field.attr) !== null) count++;
        } else {
          for (const node of entry.querySelectorAll(field.css)) if (value(node, field.attr) !== null) count++;
        }
      }
    }
    for (const a of doc.querySelectorAll(links.css)) if (value(a, links.attr) !== null) count++;
    return count;
  };
}

interface Baseline {
  what: string;
  note: string;
  extracts: boolean;
  work: () => Promise<PageWork>;
}

async function timeBaseline(baseline: Baseline, pages: readonly string[], options: TimingOptions): Promise<BaselineRow> {
  const { what, note } = baseline;
  try {
    const work = await baseline.work();
    const strings = pages.reduce((n, html) => n + work(html), 0);
    return { what, pagesPerSecond: timed(pages, work, options).pagesPerSecond, strings: baseline.extracts ? strings : null, note };
  } catch (error) {
    return { what, pagesPerSecond: null, strings: null, note: `failed: ${errorMessage(error)}` };
  }
}

export async function runBaselines(
  listing: PageSet,
  queries: ListingQueries,
  options: TimingOptions,
  progress: (line: string) => void,
): Promise<BaselineRow[]> {
  const linkedom = async () => (await import(LINKEDOM)) as LinkedomModule;
  const baselines: Baseline[] = [
    {
      what: 'htmlparser2 12 parseDocument',
      note: 'parse only (the tokenizer under linkedom)',
      extracts: false,
      work: async () => (html) => (parseDocument(html), 0),
    },
    {
      what: 'linkedom 0.18.14 DOMParser',
      note: 'parse only',
      extracts: false,
      work: async () => {
        const ld = await linkedom();
        return (html) => (new ld.DOMParser().parseFromString(html, 'text/html'), 0);
      },
    },
    {
      what: 'linkedom + xpath 0.0.34',
      note: 'parse + extract; DOCTYPE stripped, normalize(), isHtml',
      extracts: true,
      work: async () => xpathWork(await linkedom(), (await import(XPATH)) as XPathModule, queries),
    },
    {
      what: 'linkedom + querySelectorAll',
      note: 'parse + extract; textContent for ::text',
      extracts: true,
      work: async () => querySelectorWork(await linkedom(), queries),
    },
  ];
  const rows: BaselineRow[] = [];
  for (const baseline of baselines) {
    progress(`baseline: ${baseline.what}`);
    rows.push(await timeBaseline(baseline, listing.pages, options));
  }
  return rows;
}
