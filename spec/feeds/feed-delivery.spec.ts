/**
 * Remote feeds delivered through the stores, in process: batches uploaded
 * to a real S3-compatible server (s3rver on a loopback port) while the
 * crawl still runs, passwords masked in every line, uploads retried, and a
 * delivery that keeps failing: one ERROR naming the kept copy, the failure
 * counted, and a later run that never overwrites that copy.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Settings } from '../../src/settings/index.js';
import { FeedExporter, resolveFeeds } from '../../src/feeds/index.js';
import type { ObjectStore } from '../../src/stores/object-store.js';
import { StoreError } from '../../src/stores/store-error.js';
import { startS3Server, S3_KEY_ID, type S3TestServer } from '../helpers/s3-server.js';

let server: S3TestServer;
beforeAll(async () => {
  server = await startS3Server();
});
afterAll(() => server.close());

let temp: string;
let logs: string[];
let stats: Record<string, number>;
beforeEach(() => {
  temp = mkdtempSync(join(tmpdir(), 'seine-delivery-'));
  logs = [];
  stats = {};
});
afterEach(() => rmSync(temp, { recursive: true, force: true }));

interface Options {
  openStore?: (uri: string) => Promise<ObjectStore>;
  attempts?: number;
}

function exporter(feeds: Record<string, { format: string; [option: string]: unknown }>, options: Options = {}): FeedExporter {
  const s3 = server.settings();
  const settings = new Settings({ FEED_TEMPDIR: temp, FEEDS: feeds }, 'project');
  return new FeedExporter(resolveFeeds(settings), {
    spider: { name: 'quotes' },
    settings: { get: (name: string) => (name === 'FEED_TEMPDIR' ? temp : s3.get(name)) },
    logger: { info: (m: string) => logs.push(`INFO: ${m}`), warning: (m: string) => logs.push(`WARNING: ${m}`), error: (m: string) => logs.push(`ERROR: ${m}`) },
    stats: { inc: (key: string) => void (stats[key] = (stats[key] ?? 0) + 1) },
    retry: { attempts: options.attempts ?? 2, firstDelayMs: 10 },
    ...(options.openStore === undefined ? {} : { openStore: options.openStore }),
  });
}

/** Where s3rver keeps an object's bytes. */
const objectFile = (key: string): string => join(server.root, server.bucket, `${key}._S3rver_object`);

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const gunzip = (path: string): string => spawnSync('/usr/bin/python3', ['-c', 'import sys, gzip; sys.stdout.write(gzip.open(sys.argv[1]).read().decode())', path], { encoding: 'utf8' }).stdout;

/** A store that fails its first `failures` puts, then keeps what it is given. */
function flakyStore(failures: number): { open: (uri: string) => Promise<ObjectStore>; stored: Map<string, string>; puts: () => number } {
  const stored = new Map<string, string>();
  let puts = 0;
  const store: ObjectStore = {
    displayUri: 'ftp://seine:***@127.0.0.1:2121/out',
    put: async (key, body) => {
      puts++;
      const chunks: Buffer[] = [];
      for await (const chunk of Buffer.isBuffer(body) ? [body] : body) chunks.push(chunk as Buffer);
      if (puts <= failures) throw new StoreError(`ftp://seine:***@127.0.0.1:2121/out/${key}`, '421 Service not available, closing control connection');
      stored.set(key, Buffer.concat(chunks).toString('utf8'));
    },
    stat: async () => undefined,
    close: async () => {},
  };
  return { open: async () => store, stored, puts: () => puts };
}

describe('remote feeds', () => {
  it('uploads each gzip batch to S3 as soon as it is full, while the crawl goes on', async () => {
    const feeds = exporter({ [server.uri('exports/%(name)s-%(batch_id)d.jsonl.gz')]: { format: 'jsonlines', postprocessing: ['GzipPlugin'], batch_item_count: 2 } });
    feeds.exportItem({ n: 1 });
    feeds.exportItem({ n: 2 });
    // Batch 1 is in the bucket before the feeds close (s3rver writes an object's file as it arrives: wait for the line that says it is whole).
    await until(() => logs.length > 0);
    expect(gunzip(objectFile('exports/quotes-1.jsonl.gz'))).toBe('{"n": 1}\n{"n": 2}\n');
    expect(logs).toEqual(['INFO: Stored jsonlines feed (2 items) in: s3://seine-test/exports/quotes-1.jsonl.gz']);
    feeds.exportItem({ n: 3 });
    await feeds.close();
    expect(gunzip(objectFile('exports/quotes-2.jsonl.gz'))).toBe('{"n": 3}\n');
    expect(logs[1]).toBe('INFO: Stored jsonlines feed (1 items) in: s3://seine-test/exports/quotes-2.jsonl.gz');
    expect(stats).toEqual({ 'feedexport/success_count/S3FeedStorage': 2 });
    expect(readdirSync(temp)).toEqual([]);
  });

  it('masks the password of a feed URI in every line', async () => {
    const uri = server.uri('masked.json', { key: S3_KEY_ID, secret: 'pa55-w0rd' });
    const feeds = exporter({ [uri]: { format: 'json', overwrite: false } });
    feeds.exportItem({ n: 1 });
    await feeds.close();
    expect(readFileSync(objectFile('masked.json'), 'utf8')).toBe('[\n{"n": 1}\n]');
    expect(logs).toEqual([
      'WARNING: S3 feeds are replaced, not appended to: s3://S3RVER:***@seine-test/masked.json will be overwritten. To suppress this warning, remove the overwrite option from your FEEDS setting or set it to true',
      'INFO: Stored json feed (1 items) in: s3://S3RVER:***@seine-test/masked.json',
    ]);
    expect(logs.join('\n')).not.toContain('pa55-w0rd');
  });

  it('retries a failed upload with backoff, then stores it', async () => {
    const store = flakyStore(1);
    const feeds = exporter({ 'ftp://seine:ftp-pw@127.0.0.1:2121/out/items.jsonl': { format: 'jsonlines' } }, { openStore: store.open });
    feeds.exportItem({ n: 1 });
    await feeds.close();
    expect(store.stored.get('items.jsonl')).toBe('{"n": 1}\n');
    expect(logs).toEqual([
      'WARNING: Retrying the upload of the jsonlines feed (1 items) in: ftp://seine:***@127.0.0.1:2121/out/items.jsonl (attempt 1 failed: 421 Service not available, closing control connection)',
      'INFO: Stored jsonlines feed (1 items) in: ftp://seine:***@127.0.0.1:2121/out/items.jsonl',
    ]);
    expect(stats).toEqual({ 'feedexport/success_count/FTPFeedStorage': 1 });
  });

  it('keeps a feed it cannot deliver: one ERROR naming the copy, counted as failed; the next run keeps it too', async () => {
    const uri = 'sftp://seine:s3cret@127.0.0.1:2222/drop/items.jsonl';
    const first = flakyStore(Infinity);
    let feeds = exporter({ [uri]: { format: 'jsonlines' } }, { openStore: first.open, attempts: 3 });
    feeds.exportItem({ run: 1 });
    await feeds.close();
    expect(first.puts()).toBe(3);
    const [kept] = readdirSync(temp);
    expect(kept).toMatch(/^undelivered-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-\d+-\d+-items\.jsonl$/);
    expect(logs.filter((line) => line.startsWith('ERROR'))).toEqual([
      `ERROR: Error storing jsonlines feed (1 items) in: sftp://seine:***@127.0.0.1:2222/drop/items.jsonl: 421 Service not available, closing control connection; the feed is kept in ${join(temp, kept!)} (no run overwrites it: deliver it from there)`,
    ]);
    expect(logs.filter((line) => line.startsWith('WARNING'))).toHaveLength(2);
    expect(logs.join('\n')).not.toContain('s3cret');
    expect(stats).toEqual({ 'feedexport/failed_count/SFTPFeedStorage': 1 });
    expect(readFileSync(join(temp, kept!), 'utf8')).toBe('{"run": 1}\n');

    feeds = exporter({ [uri]: { format: 'jsonlines' } }, { openStore: flakyStore(Infinity).open, attempts: 1 });
    feeds.exportItem({ run: 2 });
    await feeds.close();
    const copies = readdirSync(temp).sort();
    expect(copies).toHaveLength(2);
    expect(readFileSync(join(temp, kept!), 'utf8')).toBe('{"run": 1}\n');
    expect(readFileSync(join(temp, copies.find((name) => name !== kept)!), 'utf8')).toBe('{"run": 2}\n');
  });

  it('keeps the feed when its store cannot be reached at all (S3 down), without hanging', async () => {
    const feeds = exporter({ [server.uri('down/items.jsonl')]: { format: 'jsonlines' } }, { attempts: 1 });
    feeds.exportItem({ n: 1 });
    await server.stop();
    try {
      const started = Date.now();
      await feeds.close();
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await server.restart();
    }
    expect(logs).toHaveLength(1);
    // The AWS SDK's own words for a refused connection.
    expect(logs[0]).toMatch(/^ERROR: Error storing jsonlines feed \(1 items\) in: s3:\/\/seine-test\/down\/items\.jsonl: .+; the feed is kept in .+undelivered-.+-items\.jsonl \(no run overwrites it: deliver it from there\)$/);
    expect(stats).toEqual({ 'feedexport/failed_count/S3FeedStorage': 1 });
    expect(existsSync(objectFile('down/items.jsonl'))).toBe(false);
  }, 30_000);

  it('a store down mid-crawl: the batch it missed is kept, the batches after it are delivered once it is back', async () => {
    const feeds = exporter({ [server.uri('midcrawl/b-%(batch_id)d.jsonl')]: { format: 'jsonlines', batch_item_count: 1 } }, { attempts: 1 });
    await server.stop();
    try {
      feeds.exportItem({ n: 1 });
      await until(() => logs.length > 0);
    } finally {
      await server.restart();
    }
    feeds.exportItem({ n: 2 });
    await feeds.close();
    const [kept] = readdirSync(temp);
    expect(logs[0]).toMatch(/^ERROR: Error storing jsonlines feed \(1 items\) in: s3:\/\/seine-test\/midcrawl\/b-1\.jsonl: .+; the feed is kept in .+undelivered-.+-b-1\.jsonl \(no run overwrites it: deliver it from there\)$/);
    expect(readFileSync(join(temp, kept!), 'utf8')).toBe('{"n": 1}\n');
    expect(logs.slice(1)).toEqual(['INFO: Stored jsonlines feed (1 items) in: s3://seine-test/midcrawl/b-2.jsonl', 'INFO: Stored jsonlines feed (0 items) in: s3://seine-test/midcrawl/b-3.jsonl']);
    expect(readFileSync(objectFile('midcrawl/b-2.jsonl'), 'utf8')).toBe('{"n": 2}\n');
    expect(stats).toEqual({ 'feedexport/failed_count/S3FeedStorage': 1, 'feedexport/success_count/S3FeedStorage': 2 });
  }, 30_000);

  it('keeps what a killed run left in FEED_TEMPDIR for the same feed under an undelivered name, with a WARNING; other feeds\' files are left alone', async () => {
    // A process that has exited: its pid names a run that no longer runs.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(join(temp, `seine-feed-${gone}-3-items-7.jsonl`), '{"n": 1}\n');
    writeFileSync(join(temp, `seine-feed-${gone}-4-other.jsonl`), '{"n": 2}\n');
    const feeds = exporter({ [server.uri('after-kill/items-%(batch_id)d.jsonl')]: { format: 'jsonlines' } });
    expect(readdirSync(temp)).toContain(`seine-feed-${gone}-4-other.jsonl`);
    const [kept] = readdirSync(temp).filter((name) => name.startsWith('undelivered-'));
    expect(kept).toMatch(/^undelivered-.+-items-7\.jsonl$/);
    expect(readFileSync(join(temp, kept!), 'utf8')).toBe('{"n": 1}\n');
    expect(logs).toEqual([
      `WARNING: A run that was killed (process ${gone}, no longer running) left the items it exported in ${join(temp, `seine-feed-${gone}-3-items-7.jsonl`)}: kept as ${join(temp, kept!)} (deliver it from there)`,
    ]);
    await feeds.close();
  });
});
