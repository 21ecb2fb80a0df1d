/**
 * WARC_ENABLED with FilesPipeline: the media downloads are archived like
 * pages, their bodies streamed to temporary files by the download (and read
 * back from there by the archive), the stored file and the archived payload
 * the same bytes, and nothing left in FEED_TEMPDIR after the crawl.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spider, type FileResult } from '../../src/index.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';
import { readWithPython, sha1Digest } from './fixtures/warc-reading.js';

const BIG = randomBytes(2 * 1024 * 1024 + 5);
const SMALL = Buffer.from('a small text file\n');

class MediaItems extends Spider {
  static override name = 'media';
  declare base: string;
  override async *start() {
    yield { file_urls: [`${this.base}/files/big.bin`, `${this.base}/files/small.txt`] };
  }
}

let site: TestSite;
let root: string;
beforeAll(async () => {
  site = await startSite({
    '/files/big.bin': (_req, res) => res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(BIG),
    '/files/small.txt': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(SMALL),
  });
  root = mkdtempSync(join(tmpdir(), 'seine-warc-media-'));
});
afterAll(async () => {
  await site.close();
  rmSync(root, { recursive: true, force: true });
});

describe('WARC_ENABLED with FilesPipeline', () => {
  it('archives each media download with the bytes the store received, and leaves no temporary file', async () => {
    const temp = join(root, 'temp');
    const store = join(root, 'store');
    const warcDir = join(root, 'warc');
    mkdirSync(temp);
    const { items, stats } = await runCrawl(
      MediaItems,
      { ITEM_PIPELINES: { FilesPipeline: 1 }, FILES_STORE: store, FEED_TEMPDIR: temp, ROBOTSTXT_OBEY: false, WARC_ENABLED: true, WARC_DIR: warcDir },
      { base: site.url('') },
    );
    const files = items[0]!['files'] as FileResult[];
    expect(files.map((file) => file.status)).toEqual(['downloaded', 'downloaded']);
    // Buffer.equals: jest's toEqual walks a 2 MB buffer byte by byte for seconds.
    expect(readFileSync(join(store, files[0]!.path)).equals(BIG)).toBe(true);
    const [archive] = readWithPython(warcDir);
    expect(archive!.errors).toEqual([]);
    const big = archive!.records.find((r) => r.type === 'response' && r.uri === site.url('/files/big.bin'))!;
    expect(big.http!.bodyLength).toBe(BIG.length);
    expect(big.payloadDigest).toBe(sha1Digest(BIG));
    const small = archive!.records.find((r) => r.type === 'response' && r.uri === site.url('/files/small.txt'))!;
    expect(small.http!.body).toBe(SMALL.toString());
    expect(archive!.index.map((line) => line.url).sort()).toEqual([site.url('/files/big.bin'), site.url('/files/small.txt')]);
    expect(readdirSync(temp)).toEqual([]);
    expect(stats['warc/records']).toBe(5);
  }, 30_000);
});
