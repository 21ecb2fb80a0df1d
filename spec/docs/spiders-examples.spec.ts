/**
 * Runs the examples of docs/spiders.md (```ts blocks whose first line is
 * `// example: <name>`) through the real binary, as a user would: each is
 * written into a temporary folder and run with `seine runspider`, with
 * `http://127.0.0.1:8000` replaced by a local test server.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt, logMessages, runSeine } from '../cli/fixtures/run-seine.js';
import { quotesSite, startSite, type TestSite } from '../helpers/site-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const doc = readFileSync(join(ROOT, 'docs', 'spiders.md'), 'utf8');
const examples = new Map([...doc.matchAll(/```ts\n\/\/ example: ([\w-]+)\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]));

let site: TestSite;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite(quotesSite(2));
  dir = mkdtempSync(join(tmpdir(), 'seine-spiders-doc-'));
}, 120_000);
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

function exampleFile(name: string): string {
  const source = examples.get(name);
  if (source === undefined) throw new Error(`docs/spiders.md has no \`// example: ${name}\` block`);
  writeFileSync(join(dir, `${name}.ts`), source.replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, '')));
  return `${name}.ts`;
}

describe('docs/spiders.md examples', () => {
  it('spider-idle: each idle crawl gets the next batch, and the crawl closes (finished) when none is left', async () => {
    const result = await runSeine(['runspider', exampleFile('spider-idle'), '-O', 'batches.jsonl', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(result.status).toBe(0);
    const items = readFileSync(join(dir, 'batches.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { url: string; title: string });
    expect(items).toEqual([
      { url: site.url('/page/1/'), title: 'Quotes 1' },
      { url: site.url('/page/2/'), title: 'Quotes 2' },
    ]);
    expect(logMessages(result.stderr)).toContain('Spider closed (finished)');
  });
});
