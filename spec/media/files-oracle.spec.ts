import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spider, type FileResult } from '../../src/index.js';
import { runCrawl, startSite, type Route, type TestSite } from '../helpers/site-server.js';

/**
 * FilesPipeline against Scrapy 2.8's on the same site, twice on one store
 * (files-oracle.json, recorded by spec/media/fixtures/record-files-oracle.py):
 * the same paths (extensions by Python's mimetypes, with Debian's
 * mime.types, including Scrapy's `full/<sha1>None`), checksums, statuses
 * (downloaded, then uptodate), failure lines and stats.
 */

interface Stored { path: string; checksum: string; status: string }
const oracle = JSON.parse(readFileSync(new URL('./fixtures/files-oracle.json', import.meta.url), 'utf8')) as {
  routes: Record<string, [number, string]>;
  stats: Array<Record<string, number>>;
  urls: Record<string, { run1?: Stored; run2?: Stored; failed?: string[] }>;
};

let site: TestSite;
let store: string;

beforeAll(async () => {
  // The recorder's site: `200 file at <path>` for every path, except its ROUTES.
  const routes: Record<string, Route> = {};
  for (const path of [...Object.keys(oracle.urls), '/docs/notes.txt']) {
    const [status, body] = oracle.routes[path] ?? [200, `file at ${path}`];
    routes[path] = (_req, res) => res.writeHead(status, status === 302 ? { Location: '/docs/report.pdf' } : {}).end(body);
  }
  site = await startSite(routes);
  store = mkdtempSync(join(tmpdir(), 'seine-files-oracle-'));
});
afterAll(async () => {
  await site.close();
  rmSync(store, { recursive: true, force: true });
});

class FilesSpider extends Spider {
  static override name = 'files';
  override async *start() {
    for (const path of Object.keys(oracle.urls)) yield { src: path, file_urls: [site.url(path)] };
  }
}

describe('FilesPipeline against Scrapy 2.8', () => {
  it('stores, finds uptodate and fails the URLs Scrapy does, with its paths, checksums, lines and stats', async () => {
    const settings = { ITEM_PIPELINES: { FilesPipeline: 1 }, FILES_STORE: store };
    const runs = [await runCrawl(FilesSpider, settings), await runCrawl(FilesSpider, settings)];
    const port = new URL(site.url('/')).port;
    for (const [path, expected] of Object.entries(oracle.urls)) {
      const url = site.url(path);
      const sha1 = createHash('sha1').update(url).digest('hex');
      runs.forEach((run, i) => {
        const item = run.items.find((it) => it['src'] === path)!;
        const files = (item['files'] as FileResult[]).map((f) => ({ ...f, path: f.path.replace(sha1, '<sha1>') }));
        const recorded = i === 0 ? expected.run1 : expected.run2;
        expect([path, files]).toEqual([path, recorded === undefined ? [] : [{ url, ...recorded }]]);
      });
      if (expected.failed !== undefined) {
        const lines = new Set(
          runs.flatMap((run) => run.logs.filter((l) => l.logger === 'seine.pipelines.files' && l.level !== 'DEBUG' && l.message.includes(`${url}>`)).map((l) => `${l.level} ${l.message}`)),
        );
        expect([path, [...lines]]).toEqual([path, expected.failed.map((line) => line.replace('PORT', port))]);
      }
    }
    const fileStats = (stats: Record<string, unknown>) => Object.fromEntries(Object.entries(stats).filter(([key]) => key.startsWith('file_')));
    expect(runs.map((run) => fileStats(run.stats))).toEqual(oracle.stats);
  });
});
