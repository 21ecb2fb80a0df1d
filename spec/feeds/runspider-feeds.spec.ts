/**
 * Feeds from the command line: `seine runspider` with -o/-O in every
 * format, standard output, the append warning, a missing folder refused
 * before crawling, Ctrl-C leaving a valid JSON array, a run that scrapes
 * nothing writing what Scrapy 2.8 writes, and the temporary file of a
 * killed run removed by the next run.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { QUOTES_SPIDER, SLOW_SPIDER } from '../cli/fixtures/spiders.js';
import { ensureBuilt, logMessages, runSeine, startSeine } from '../cli/fixtures/run-seine.js';

const QUOTES = [
  { text: 'Café “one”', author: 'A', tags: ['x', 'y'] },
  { text: 'Two, <2>', author: 'B', tags: [] },
];
const QUIET = ['-s', 'TELNETCONSOLE_ENABLED=false', '-L', 'INFO'];
const EMPTY_SPIDER = `import { Spider } from 'seine';

export class EmptySpider extends Spider {
  static name = 'empty';
  startUrls: string[] = [];
}
`;
const TIMEOUT = 60_000;

function quotePage(n: number): string {
  const quote = QUOTES[n - 1]!;
  const tags = quote.tags.map((t) => `<a class="tag" href="/tag/${t}/">${t}</a>`).join(' ');
  const next = n < QUOTES.length ? `<li class="next"><a href="/page/${n + 1}/">Next</a></li>` : '';
  return `<html><head><meta charset="utf-8"></head><body><div class="quote"><span class="text">${quote.text.replace('<', '&lt;').replace('>', '&gt;')}</span>
<small class="author">${quote.author}</small><div class="tags">${tags}</div></div><ul class="pager">${next}</ul></body></html>`;
}

let site: TestSite;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const routes: Parameters<typeof startSite>[0] = { '/page/1/': quotePage(1), '/page/2/': quotePage(2) };
  for (let n = 1; n <= 40; n++) {
    routes[`/slow/${n}/`] = (_req, res) => {
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body><p>slow ${n}</p></body></html>`);
      }, 400).unref();
    };
  }
  site = await startSite(routes);
  dir = mkdtempSync(join(tmpdir(), 'seine-feeds-cli-'));
}, 120_000);
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

function spiderFile(name: string, source: string): string {
  writeFileSync(join(dir, name), source.replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, '')));
  return name;
}

const read = (name: string): string => readFileSync(join(dir, name), 'utf8');

describe('seine runspider -o/-O', () => {
  it('writes json, csv and xml at once, each logged as Stored', async () => {
    const file = spiderFile('quotes.ts', QUOTES_SPIDER);
    const result = await runSeine(['runspider', file, '-O', 'q.json', '-O', 'q.csv', '-O', 'q.data:xml', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(read('q.json')).toBe(
      '[\n{"text": "Caf\\u00e9 \\u201cone\\u201d", "author": "A", "tags": ["x", "y"]},\n{"text": "Two, <2>", "author": "B", "tags": []}\n]',
    );
    expect(read('q.csv')).toBe('text,author,tags\r\nCafé “one”,A,"x,y"\r\n"Two, <2>",B,\r\n');
    expect(read('q.data')).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n<items>\n<item><text>Café “one”</text><author>A</author><tags><value>x</value><value>y</value></tags></item>\n' +
        '<item><text>Two, &lt;2&gt;</text><author>B</author><tags></tags></item>\n</items>',
    );
    const messages = logMessages(result.stderr);
    expect(messages).toContain('Stored json feed (2 items) in: q.json');
    expect(messages).toContain('Stored csv feed (2 items) in: q.csv');
    expect(messages).toContain('Stored xml feed (2 items) in: q.data');
  }, TIMEOUT);

  // `-o -:json` as two words is read by yargs as an unknown flag `-:json`; `-o=-:json` passes it as the value.
  it('-o=-:json writes a JSON array to standard output, and nothing else', async () => {
    const file = spiderFile('quotes.ts', QUOTES_SPIDER);
    const result = await runSeine(['runspider', file, '-o=-:json', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(QUOTES);
    expect(logMessages(result.stderr)).toContain('Stored json feed (2 items) in: -');
  }, TIMEOUT);

  it('-o on a JSON file that has content warns, and the crawl goes on', async () => {
    const file = spiderFile('quotes.ts', QUOTES_SPIDER);
    writeFileSync(join(dir, 'append.json'), '[\n{"old": true}\n]');
    const result = await runSeine(['runspider', file, '-o', 'append.json', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(
      /\[seine\.extensions\.feedexport\] WARNING: Appending to a JSON file produces invalid JSON: append\.json already holds a feed, and a second one will follow it\. Use -O to overwrite it, or append to a JSON Lines feed instead \(-o append\.jsonl\)\n/,
    );
    expect(read('append.json').startsWith('[\n{"old": true}\n][\n{"text"')).toBe(true);
  }, TIMEOUT);

  it('a feed in a missing folder: one clear line, exit status 1, nothing crawled', async () => {
    const file = spiderFile('quotes.ts', QUOTES_SPIDER);
    site.reset();
    const result = await runSeine(['runspider', file, '-O', 'missing/items.json', ...QUIET], dir);
    expect(result.status).toBe(1);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      "seine: Cannot write the feed 'missing/items.json': the folder 'missing' does not exist (check that the folder exists and is writable, or choose another -o/-O path)",
    );
    expect(site.hits).toEqual([]);
  }, TIMEOUT);

  it("writes -O items.txt with the spider's own FEED_EXPORTERS format, and lists it when -o names an unknown one", async () => {
    const source = QUOTES_SPIDER.replace(
      "export class QuotesSpider extends Spider {\n",
      `class TextExporter implements ItemExporter {
  start() { return Buffer.from(''); }
  exportItem(item: any) { return Buffer.from(item.author + ': ' + item.text + '\\n'); }
  finish() { return Buffer.from('--\\n'); }
}

export class QuotesSpider extends Spider {
  static customSettings = { FEED_EXPORTERS: { txt: TextExporter } };
`,
    ).replace("import { Spider, Request, type Response } from 'seine';", "import { Spider, Request, type Response, type ItemExporter } from 'seine';");
    const file = spiderFile('text-quotes.ts', source);
    const result = await runSeine(['runspider', file, '-O', 'items.txt', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(read('items.txt')).toBe('A: Café “one”\nB: Two, <2>\n--\n');
    expect(logMessages(result.stderr)).toContain('Stored txt feed (2 items) in: items.txt');
    site.reset();
    const refused = await runSeine(['runspider', file, '-o', 'items.out:yaml', ...QUIET], dir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).not.toContain('    at ');
    expect(refused.stderr.trimEnd().split('\n').at(-1)).toBe(
      "seine: Unknown feed format 'yaml' in 'items.out:yaml': use one of json, jsonlines, jsonl, jl, csv, xml, txt after the colon, e.g. -o items.out:jsonlines",
    );
    expect(site.hits).toEqual([]);
  }, TIMEOUT);

  it('SIGINT mid-crawl leaves a complete JSON array with every scraped item, and no temporary file', async () => {
    const file = spiderFile('slow.ts', SLOW_SPIDER);
    const run = startSeine(['runspider', file, '-O', 'slow.json', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    await run.waitForLog(/Scraped from <200 /);
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.status).toBe(0);
    const items = JSON.parse(read('slow.json')) as unknown[];
    const scraped = Number(/'item_scraped_count': (\d+)/.exec(result.stderr)![1]);
    expect(items).toHaveLength(scraped);
    expect(scraped).toBeGreaterThan(0);
    expect(scraped).toBeLessThan(40);
    expect(logMessages(result.stderr)).toContain(`Stored json feed (${scraped} items) in: slow.json`);
    expect(readdirSync(dir).filter((name) => name.includes('seine-tmp'))).toEqual([]);
  }, TIMEOUT);

  // Scrapy 2.8.0's own output for a spider that yields nothing, `-O` over files that held `["old"]\n`
  // (recorded with Debian's python3-scrapy; see spec/feeds/feed-exporter.spec.ts): 0 bytes in every
  // format with its default FEED_STORE_EMPTY=False; with FEED_STORE_EMPTY=True, `[\n\n]` for JSON and
  // `<?xml …?>\n<items>\n</items>` for XML, still 0 bytes for JSON Lines and CSV.
  it('a run that scrapes nothing with -O writes what Scrapy writes, over an earlier file too (FEED_STORE_EMPTY on by default, as Scrapy ≥ 2.10)', async () => {
    const file = spiderFile('empty.ts', EMPTY_SPIDER);
    const formats = ['json', 'jsonl', 'csv', 'xml'];
    const args = (prefix: string) => formats.flatMap((ext) => ['-O', `${prefix}.${ext}`]);
    for (const ext of formats) writeFileSync(join(dir, `empty-old.${ext}`), '["old"]\n');
    const plain = await runSeine(['runspider', file, ...args('empty-old'), '-s', 'FEED_STORE_EMPTY=false', ...QUIET], dir);
    expect(plain.status).toBe(0);
    for (const ext of formats) expect(read(`empty-old.${ext}`)).toBe('');
    expect(logMessages(plain.stderr).filter((m) => m.startsWith('Stored'))).toEqual([]);

    for (const ext of formats) writeFileSync(join(dir, `empty-old.${ext}`), '["old"]\n');
    const stored = await runSeine(['runspider', file, ...args('empty-old'), ...QUIET], dir);
    expect(stored.status).toBe(0);
    expect(read('empty-old.json')).toBe('[\n\n]');
    expect(read('empty-old.jsonl')).toBe('');
    expect(read('empty-old.csv')).toBe('');
    expect(read('empty-old.xml')).toBe('<?xml version="1.0" encoding="utf-8"?>\n<items>\n</items>');
    expect(logMessages(stored.stderr)).toContain('Stored json feed (0 items) in: empty-old.json');
    expect(readdirSync(dir).filter((name) => name.includes('seine-tmp'))).toEqual([]);
  }, TIMEOUT);

  it("removes the temporary file a killed -O run left, in one INFO line, and keeps a live process's", async () => {
    const file = spiderFile('quotes.ts', QUOTES_SPIDER);
    const exited = spawnSync(process.execPath, ['-e', '']);
    expect(exited.status).toBe(0);
    const stale = `.killed.json.${exited.pid}.seine-tmp`; // what a SIGKILLed `-O killed.json` leaves
    const live = `.killed.json.${process.pid}.seine-tmp`; // this test's own process is alive
    writeFileSync(join(dir, stale), '[\n{"text": "half an item');
    writeFileSync(join(dir, live), '[\n');
    writeFileSync(join(dir, 'killed.json'), '[\n{"old": true}\n]');
    const result = await runSeine(['runspider', file, '-O', 'killed.json', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(logMessages(result.stderr).filter((m) => m.startsWith('Removed'))).toEqual([
      `Removed a temporary file that an interrupted run (process ${exited.pid}, no longer running) left for killed.json: ${stale}`,
    ]);
    expect(readdirSync(dir).filter((name) => name.startsWith('.killed.json.'))).toEqual([live]);
    expect(read(live)).toBe('[\n');
    expect(JSON.parse(read('killed.json'))).toEqual(QUOTES);
  }, TIMEOUT);
});
