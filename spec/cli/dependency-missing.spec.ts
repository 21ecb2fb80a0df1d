/**
 * An install that lost a package seine loads on first use: got, loaded with
 * the first HTTP/2 download (H2DownloadHandler; HTTP/1.1 is node:http's).
 * The child process gets a resolve hook that answers `got` as Node does for
 * a package that is not there, so this is what a user with a cut-short
 * `npm install` sees, and proves that a plain crawl never imports got.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, logMessages, runSeine } from './fixtures/run-seine.js';

let dir: string;
let site: TestSite;
let noGot: string;
let noCsv: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'seine-missing-'));
  site = await startSite({ '/': '<html><body><p>hello</p></body></html>' });
  const resolver = `export async function resolve(specifier, context, next) {
  if (specifier === 'got') {
    const error = new Error("Cannot find package 'got' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
  noGot = join(dir, 'no-got.mjs');
  writeFileSync(noGot, `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(resolver)}));\n`);
  // CommonJS packages seine loads with createRequire (csv-stringify) do not pass the ESM resolve hook: patch require's resolver.
  noCsv = join(dir, 'no-csv.cjs');
  writeFileSync(
    noCsv,
    `const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request.startsWith('csv-stringify')) {
    const error = new Error("Cannot find module '" + request + "'");
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
`,
  );
}, 120_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a crawl missing a package it loads on first use', () => {
  it('downloads over HTTP/1.1 without it: got is never imported by a plain crawl', async () => {
    const spiderFile = join(dir, 'one-item.ts');
    writeFileSync(
      spiderFile,
      `import { Request, Spider, type Response } from 'seine';
export class OneItemSpider extends Spider {
  static override name = 'one-item';
  override async *start() {
    yield new Request(${JSON.stringify(site.url('/'))});
  }
  override parse(response: Response) {
    return { text: response.css('p::text').get(), protocol: response.protocol };
  }
}
`,
    );
    site.reset();
    const feed = join(dir, 'plain.jsonl');
    const run = await runSeine(['runspider', spiderFile, '-O', feed, '-s', 'TELNETCONSOLE_ENABLED=false'], dir, { NODE_OPTIONS: `--import=${noGot}` });
    expect(run.status).toBe(0);
    expect(logMessages(run.stderr)).toContain('Spider closed (finished)');
    expect(site.hits).toEqual(['/']);
    expect(readFileSync(feed, 'utf8')).toBe('{"text": "hello", "protocol": "HTTP/1.1"}\n');
  }, 60_000);

  it('an HTTP/2 crawl stops before the first download with one line that says to reinstall, exit status 1, and keeps the items it had', async () => {
    const spiderFile = join(dir, 'start-item.ts');
    writeFileSync(
      spiderFile,
      `import { Request, Spider, type Response } from 'seine';
export class StartItemSpider extends Spider {
  static override name = 'start-item';
  static override customSettings = { DOWNLOAD_HANDLERS: { http: 'H2DownloadHandler' } };
  override async *start() {
    yield { from: 'start' };
    yield new Request(${JSON.stringify(site.url('/'))});
  }
  override parse(response: Response) {
    return { text: response.css('p::text').get() };
  }
}
`,
    );
    site.reset();
    const feed = join(dir, 'items.jsonl');
    const run = await runSeine(['runspider', spiderFile, '-O', feed, '-s', 'TELNETCONSOLE_ENABLED=false'], dir, { NODE_OPTIONS: `--import=${noGot}` });
    expect(run.status).toBe(1);
    const lastLine = run.stderr.trimEnd().split('\n').at(-1)!;
    expect(lastLine).toMatch(
      /^seine: The package 'got', needed for downloading over HTTP\/2 \(H2DownloadHandler\), could not be loaded \(Cannot find package 'got' imported from file:\/\/\S+\): reinstall the project's packages \(npm install\) — the crawl stopped; feeds were finalised and stats dumped$/,
    );
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(logMessages(run.stderr)).toContain('Spider closed (engine_error)');
    expect(site.hits).toEqual([]);
    expect(readFileSync(feed, 'utf8')).toBe('{"from": "start"}\n');
  }, 60_000);

  it('seine fetch works without it, and with H2DownloadHandler says the same line and ends instead of waiting for an answer that cannot come', async () => {
    const env = { NODE_OPTIONS: `--import=${noGot}` };
    site.reset();
    const plain = await runSeine(['fetch', '--nolog', site.url('/')], dir, env);
    expect({ status: plain.status, stdout: plain.stdout }).toEqual({ status: 0, stdout: expect.stringContaining('<p>hello</p>') });
    expect(site.hits).toEqual(['/']);
    site.reset();
    const h2 = await runSeine(['fetch', site.url('/'), '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'DOWNLOAD_HANDLERS={"http": "H2DownloadHandler"}'], dir, env);
    expect(h2.status).toBe(1);
    expect(h2.stderr.trimEnd().split('\n').at(-1)).toMatch(/^seine: The package 'got', needed for downloading over HTTP\/2 \(H2DownloadHandler\), could not be loaded \(.+\): reinstall the project's packages \(npm install\)/);
    expect(h2.stderr).not.toMatch(/^\s+at /m);
    expect(site.hits).toEqual([]);
  }, 60_000);

  it('a CSV feed without csv-stringify stops the crawl before it starts, instead of losing every item', async () => {
    const spiderFile = join(dir, 'one-page.ts');
    writeFileSync(
      spiderFile,
      `import { Spider, type Response } from 'seine';
export class OnePageSpider extends Spider {
  static override name = 'one-page';
  override startUrls = [${JSON.stringify(site.url('/'))}];
  override parse(response: Response) {
    return { text: response.css('p::text').get() };
  }
}
`,
    );
    site.reset();
    const run = await runSeine(['runspider', spiderFile, '-O', join(dir, 'items.csv'), '-s', 'TELNETCONSOLE_ENABLED=false'], dir, { NODE_OPTIONS: `--require=${noCsv}` });
    expect(run.status).toBe(1);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(
      "seine: The package 'csv-stringify/sync', needed for CSV feeds, could not be loaded (Cannot find module 'csv-stringify/sync'): reinstall the project's packages (npm install)",
    );
    expect(site.hits).toEqual([]);
  }, 60_000);

  it('is not needed by a crawl that downloads nothing', async () => {
    const spiderFile = join(dir, 'nothing.ts');
    writeFileSync(spiderFile, `import { Spider } from 'seine';\nexport class NothingSpider extends Spider {\n  static override name = 'nothing';\n}\n`);
    const run = await runSeine(['runspider', spiderFile, '-s', 'TELNETCONSOLE_ENABLED=false'], dir, { NODE_OPTIONS: `--import=${noGot}` });
    expect(run.status).toBe(0);
    expect(logMessages(run.stderr)).toContain('Spider closed (finished)');
  }, 60_000);
});
