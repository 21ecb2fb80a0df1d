/**
 * bench:media's second part: a gzip-compressed JSON Lines feed of about
 * `mb` MB (feed-spider.ts: ~1,040 bytes an item, 1,000 items a page) that
 * seine delivers to an S3 server (s3rver, spec/helpers/s3-server.ts, in a
 * process of its own) through FEEDS with `postprocessing: ['GzipPlugin']`.
 * Measured: wall time, CPU and peak RSS of seine's process, the seconds
 * between "Closing spider" and "Stored … feed" in its log (what is left to
 * compress and upload once the crawl is over), and the stored object,
 * decompressed to count its bytes and lines. Scrapy 2.8 is not run: its
 * gzip post-processing fails on S3 (`io.UnsupportedOperation: seek`, fixed
 * in 2.9).
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { runCrawler, type CrawlerMeasurement } from '../crawl/crawler-run.js';
import { startJsonProcess, stopJsonProcess } from './json-process.js';

const ITEMS_PER_PAGE = 1000;
const BYTES_PER_ITEM = 1040;
const KEY = 'feed.jsonl.gz';

export interface FeedResult {
  m: CrawlerMeasurement;
  /** Decompressed bytes and lines of the stored object; compressed size. */
  bytes: number;
  lines: number;
  compressedBytes: number;
  /** Seconds from "Closing spider" to "Stored … feed" (1 s resolution: log timestamps). */
  afterCloseSeconds: number;
}

async function gunzipCount(path: string): Promise<{ bytes: number; lines: number }> {
  let bytes = 0;
  let lines = 0;
  for await (const chunk of createReadStream(path).pipe(createGunzip()) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { bytes, lines };
}

function logTime(log: string, pattern: RegExp): number {
  const line = log.split('\n').find((l) => pattern.test(l));
  return line === undefined ? NaN : Date.parse(`${line.slice(0, 19).replace(' ', 'T')}Z`);
}

export async function runFeedBench(opts: { mb: number; work: string; site: string; root: string; timeoutMs: number }): Promise<FeedResult> {
  const s3 = await startJsonProcess<{ endpoint: string; bucket: string; root: string }>(join(opts.root, 'bench/media/s3-process.ts'));
  try {
    const { endpoint, bucket, root } = s3.info;
    const pages = Math.max(1, Math.round((opts.mb * 1024 * 1024) / (ITEMS_PER_PAGE * BYTES_PER_ITEM)));
    const settings = {
      LOG_LEVEL: 'INFO',
      TELNETCONSOLE_ENABLED: 'false',
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION_NAME: 'us-east-1',
      FEEDS: JSON.stringify({ [`s3://${bucket}/${KEY}`]: { format: 'jsonlines', postprocessing: ['GzipPlugin'] } }),
    };
    const log = join(opts.work, 'feed.log');
    process.stdout.write(`seine feed: ${pages.toLocaleString('en-US')} pages × ${ITEMS_PER_PAGE} items to s3://${bucket}/${KEY} (gzip)… `);
    const m = await runCrawler(
      {
        crawler: 'seine feed',
        command: process.execPath,
        args: [
          join(opts.root, 'bin', 'seine.js'), 'runspider', join(opts.root, 'bench/media/feed-spider.ts'),
          '-a', `site=${opts.site}`, '-a', `pages=${pages}`, '-a', `items=${ITEMS_PER_PAGE}`,
          ...Object.entries(settings).flatMap(([name, value]) => ['-s', `${name}=${value}`]),
        ],
        cwd: opts.work,
        feed: join(opts.work, 'no-local-feed'),
        log,
      },
      opts.timeoutMs,
    );
    console.log(`${m.wallSeconds.toFixed(1)} s, exit ${m.exitCode}`);
    const object = join(root, bucket, `${KEY}._S3rver_object`);
    const stored = existsSync(object) ? { ...(await gunzipCount(object)), compressedBytes: statSync(object).size } : { bytes: 0, lines: 0, compressedBytes: 0 };
    const text = readFileSync(log, 'utf8');
    const afterCloseSeconds = (logTime(text, /INFO: Stored jsonlines feed/) - logTime(text, /INFO: Closing spider/)) / 1000;
    return { m, ...stored, afterCloseSeconds };
  } finally {
    await stopJsonProcess(s3.process);
  }
}

const MB = 1024 * 1024;

export function feedReport(r: FeedResult): string[] {
  const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
  const lines = [
    `feed: ${fixed(r.bytes / MB, 1)} MB of JSON Lines (${r.lines.toLocaleString('en-US')} items) stored as ${fixed(r.compressedBytes / MB, 1)} MB of gzip in ${fixed(r.m.wallSeconds, 1)} s: ` +
      `${fixed(r.bytes / MB / r.m.wallSeconds, 1)} MB/s, CPU ${fixed(r.m.cpuSeconds, 1)} s, peak RSS ${fixed(r.m.peakRssBytes / MB, 1)} MB; ` +
      `${fixed(r.afterCloseSeconds, 0)} s of it after the crawl closed (compressing and uploading what was left)`,
  ];
  if (r.m.exitCode !== 0 || r.lines === 0) lines.push(`warning: the feed crawl exited with ${r.m.exitCode} and stored ${r.lines} items (log: feed.log)`);
  return lines;
}
