/** docs/browser.md's spider, run as the page shows it against the local JS site, with Debian's Chromium. */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, logMessages, ROOT, runSeine } from '../cli/fixtures/run-seine.js';
import { JS_QUOTES, MORE_QUOTES, startJsSite, type JsSite } from '../helpers/js-site.js';

let site: JsSite;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startJsSite();
  dir = mkdtempSync(join(tmpdir(), 'seine-browser-doc-'));
}, 120_000);
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

it("docs/browser.md's spider scrapes the quotes scripts write and a click loads, from the rendered pages only", async () => {
  const doc = readFileSync(join(ROOT, 'docs', 'browser.md'), 'utf8');
  const source = /```ts\n\/\/ example: browser-quotes\n([\s\S]*?)```/.exec(doc)![1]!;
  writeFileSync(join(dir, 'jsquotes.ts'), source.replaceAll('http://127.0.0.1:8000/', site.url('/')));
  const run = await runSeine(['runspider', 'jsquotes.ts', '-O', 'quotes.json', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
  expect(run.status).toBe(0);
  const items = JSON.parse(readFileSync(join(dir, 'quotes.json'), 'utf8')) as Array<{ text: string; author: string }>;
  const expected = [1, 2].flatMap((n) => [...JS_QUOTES[n]!, ...MORE_QUOTES[n]!].map(([text, author]) => ({ text, author })));
  const key = (item: { text: string }): string => item.text;
  expect([...items].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...expected].sort((a, b) => key(a).localeCompare(key(b))));
  // The lines the page shows.
  const messages = logMessages(run.stderr);
  expect(messages).toContain(`Crawled (200) <GET ${site.url('/')}> (referer: None)`);
  expect(messages).toContain(`Crawled (200) <GET ${site.url('/quotes/1')}> (referer: ${site.url('/')}) ['playwright']`);
}, 90_000);
