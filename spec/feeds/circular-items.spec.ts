/**
 * An item that contains itself, through the real binary: every feed format
 * and the log's item print say where the cycle is, one ERROR line per feed,
 * and leave the item out, counted as a dropped item (issue 21).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, runSeine } from '../cli/fixtures/run-seine.js';

const SPIDER = `import { Spider, type Response } from 'seine';

export class CircularSpider extends Spider {
  static name = 'circular';
  startUrls = ['http://127.0.0.1:8000/'];

  *parse(response: Response) {
    const a: Record<string, unknown> = { n: 1 };
    a.b = { up: a };
    yield { title: 'circular', a };
    yield { title: 'fine', a: { n: 2 } };
  }
}
`;

let site: TestSite;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({ '/': '<html><body>page</body></html>' });
  dir = mkdtempSync(join(tmpdir(), 'seine-circular-'));
  writeFileSync(join(dir, 'circular.ts'), SPIDER.replace('127.0.0.1:8000', new URL(site.url('/')).host));
}, 120_000);
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const FEEDS: Array<[file: string, format: string, content: string]> = [
  ['items.json', 'json', '[\n{"title": "fine", "a": {"n": 2}}\n]'],
  ['items.jsonl', 'jsonlines', '{"title": "fine", "a": {"n": 2}}\n'],
  ['items.csv', 'csv', "title,a\r\nfine,{'n': 2}\r\n"],
  ['items.xml', 'xml', '<?xml version="1.0" encoding="utf-8"?>\n<items>\n<item><title>fine</title><a><n>2</n></a></item>\n</items>'],
];

describe('a circular item', () => {
  it.each(FEEDS)('is left out of %s with one ERROR naming item.a.b.up, and counted as dropped', async (file, format, content) => {
    const run = await runSeine(['runspider', 'circular.ts', '-O', file, '-s', 'TELNETCONSOLE_ENABLED=False', '-s', 'ROBOTSTXT_OBEY=False'], dir);
    expect(run.status).toBe(0);
    expect(run.stderr).not.toContain('Maximum call stack');
    const errors = run.stderr.split('\n').filter((line) => line.includes(' ERROR: '));
    expect(errors.map((line) => line.replace(/^.* ERROR: /, ''))).toEqual([`Dropped an item from the ${format} feed ${file}: circular reference at item.a.b.up`]);
    // The log prints the item as what the feeds said of it.
    expect(run.stderr).toMatch(/Scraped from <200 [^>]+>\ncircular reference at item\.a\.b\.up\n/);
    expect(run.stderr).toContain("'item_dropped_count': 1,");
    expect(run.stderr).toContain("'item_dropped_reasons_count/CircularReferenceError': 1,");
    expect(readFileSync(join(dir, file), 'utf8')).toBe(content);
  }, 60_000);
});
