/**
 * Runs the examples of docs/streams.md (the ```ts blocks whose first line is
 * `// example: <name>`) as a user would: each is written into a temporary
 * "type": "module" folder and run with `node --import tsx`, with
 * `http://127.0.0.1:8000` replaced by a local test server and the imports of
 * `seine`, `seine/operators` and `rxjs` pointed at this checkout.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startSite, type TestSite } from '../helpers/site-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const doc = readFileSync(join(ROOT, 'docs', 'streams.md'), 'utf8');
const examples = new Map([...doc.matchAll(/```ts\n\/\/ example: ([\w-]+)\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]));

const IMPORTS: Record<string, string> = {
  seine: pathToFileURL(join(ROOT, 'src', 'index.ts')).href,
  'seine/operators': pathToFileURL(join(ROOT, 'src', 'operators', 'index.ts')).href,
  // The copy of rxjs that src/ itself loads, so that Observables are shared.
  rxjs: pathToFileURL(createRequire(join(ROOT, 'package.json')).resolve('rxjs')).href,
};
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

function quotesPage(n: number, pages: number): string {
  const quotes = [1, 2]
    .map((i) => `<div class="quote"><span class="text">Quote ${n}.${i}</span> by <small class="author">Author ${n}.${i}</small></div>`)
    .join('\n');
  const next = n < pages ? `<li class="next"><a href="/page/${n + 1}/">Next</a></li>` : '';
  return `<html><head><title>Quotes ${n}</title></head><body>${quotes}<ul class="pager">${next}</ul></body></html>`;
}

let site: TestSite;
let dir: string;

beforeAll(async () => {
  site = await startSite({
    '/page/1/': quotesPage(1, 3),
    '/page/2/': quotesPage(2, 3),
    '/page/3/': quotesPage(3, 3),
    '/private/page/': quotesPage(9, 3),
    '/robots.txt': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n'),
  });
  dir = mkdtempSync(join(tmpdir(), 'seine-streams-doc-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
});

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs one example; resolves with what it printed. */
async function runExample(name: string): Promise<string> {
  const source = examples.get(name);
  if (source === undefined) throw new Error(`docs/streams.md has no \`// example: ${name}\` block`);
  const file = join(dir, `${name}.ts`);
  writeFileSync(
    file,
    source
      .replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, ''))
      .replace(/from '(seine|seine\/operators|rxjs)';/g, (_all, specifier: string) => `from '${IMPORTS[specifier]!}';`),
  );
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', TSX, file], { cwd: dir, timeout: 30_000 });
  return stdout;
}

describe('docs/streams.md examples', () => {
  it('has the two examples the page promises', () => {
    expect([...examples.keys()]).toEqual(['crawl-in-code', 'pipeline']);
  });

  it('crawl-in-code: take(2) gets the first two items, then the crawl is cancelled', async () => {
    expect(await runExample('crawl-in-code')).toBe('Author 1.1, Author 1.2\ncancelled\n');
  }, 40_000);

  it('pipeline: dedupe → robots → download → selectors → JSON Lines writes each allowed page\'s quotes once', async () => {
    site.hits.length = 0;
    expect(await runExample('pipeline')).toBe('6 quotes written to quotes.jsonl\n');
    const lines = readFileSync(join(dir, 'quotes.jsonl'), 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    const quotes = lines.map((line) => JSON.parse(line) as { text: string; author: string });
    expect(quotes.sort((a, b) => a.text.localeCompare(b.text))).toEqual(
      ['1.1', '1.2', '2.1', '2.2', '3.1', '3.2'].map((n) => ({ text: `Quote ${n}`, author: `Author ${n}` })),
    );
    // robots.txt first and once; the duplicate and the disallowed page never reach the server.
    expect(site.hits[0]).toBe('/robots.txt');
    expect([...site.hits].sort()).toEqual(['/page/1/', '/page/2/', '/page/3/', '/robots.txt']);
  }, 40_000);
});
