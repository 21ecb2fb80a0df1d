/**
 * XPath engine micro-benchmark: time per query, parsing excluded, seine
 * against lxml on the same saved pages and queries as bench/selectors.
 *
 *   node --import tsx bench/xpath-micro.ts [--seconds 0.3] [--no-lxml] [--filter text]
 *
 * Each page is parsed once; every query (CSS ones translated as parsel
 * translates them) is evaluated from the root element in a loop for at
 * least `--seconds`, after a warm-up, and the mean is reported. lxml's side
 * runs the same loop in /usr/bin/python3 through parsel's Selector root, with
 * parsel's namespaces and smart_strings=False, as parsel itself calls it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { cssToXPath } from '../src/css/index.js';
import { ELEMENT, type DomNode } from '../src/dom/node.js';
import { parseHtml } from '../src/dom/parse-html.js';
import { compileXPath } from '../src/xpath/index.js';

interface SavedQuery {
  css?: string;
  xpath?: string;
}

const PAGES_DIR = new URL('./selectors/pages/', import.meta.url);
const QUERIES = JSON.parse(readFileSync(new URL('./selectors/queries.json', import.meta.url), 'utf8')) as {
  saved: Record<string, SavedQuery[]>;
};

const LXML_TIMER = String.raw`
import json, sys, time
from parsel import Selector
spec = json.load(sys.stdin)
out = {}
for page, queries in spec['pages'].items():
    html = open(spec['dir'] + page, encoding='utf-8').read()
    sel = Selector(text=html)
    root = sel.root
    ns = dict(sel.namespaces)
    for label, xp in queries:
        for _ in range(20):
            root.xpath(xp, namespaces=ns, smart_strings=False)
        n = 0
        start = time.perf_counter()
        while True:
            root.xpath(xp, namespaces=ns, smart_strings=False)
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed >= spec['seconds']:
                break
        out[page + '\t' + label] = elapsed / n * 1e6
print(json.dumps(out))
`;

function timeQuery(run: () => unknown, seconds: number): number {
  for (let i = 0; i < 50; i++) run();
  let n = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  do {
    run();
    n++;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  } while (elapsed < seconds);
  return (elapsed / n) * 1e6;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '0.3' },
      'no-lxml': { type: 'boolean', default: false },
      filter: { type: 'string' },
    },
  });
  const seconds = Number(values.seconds);
  const pages: Record<string, [string, string][]> = {};
  const rows: { page: string; label: string; seine: number }[] = [];
  for (const [page, queries] of Object.entries(QUERIES.saved)) {
    const html = readFileSync(new URL(page, PAGES_DIR), 'utf8');
    const doc: DomNode = parseHtml(html);
    const root = doc.children.find((c) => c.kind === ELEMENT)!;
    pages[page] = [];
    for (const q of queries) {
      const label = q.css !== undefined ? `css:${q.css}` : `xpath:${q.xpath!}`;
      if (values.filter !== undefined && !label.includes(values.filter)) continue;
      const xp = q.css !== undefined ? cssToXPath(q.css) : q.xpath!;
      const compiled = compileXPath(xp);
      rows.push({ page, label, seine: timeQuery(() => compiled.evaluate(root), seconds) });
      pages[page]!.push([label, xp]);
    }
  }
  let lxml: Record<string, number> = {};
  if (!values['no-lxml']) {
    const input = JSON.stringify({ dir: PAGES_DIR.pathname, seconds, pages });
    lxml = JSON.parse(execFileSync('/usr/bin/python3', ['-c', LXML_TIMER], { input, encoding: 'utf8' })) as Record<string, number>;
  }
  let page = '';
  let totalSeine = 0;
  let totalLxml = 0;
  for (const row of rows) {
    if (row.page !== page) {
      page = row.page;
      console.log(`\n${page}: µs per query (parse excluded)\n${'query'.padEnd(64)} ${'seine'.padStart(9)} ${'lxml'.padStart(9)}  lxml/seine`);
    }
    const other = lxml[`${row.page}\t${row.label}`];
    totalSeine += row.seine;
    if (other !== undefined) totalLxml += other;
    const ratio = other === undefined ? '' : `${(other / row.seine).toFixed(2)}×`;
    console.log(`${row.label.slice(0, 64).padEnd(64)} ${row.seine.toFixed(1).padStart(9)} ${other === undefined ? '—'.padStart(9) : other.toFixed(1).padStart(9)}  ${ratio}`);
  }
  console.log(`\nall queries: seine ${totalSeine.toFixed(0)} µs${totalLxml > 0 ? `, lxml ${totalLxml.toFixed(0)} µs (${(totalLxml / totalSeine).toFixed(2)}× seine's speed)` : ''}`);
}

main();
