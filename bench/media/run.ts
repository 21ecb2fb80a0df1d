/**
 * `npm run bench:media`: seine's ImagesPipeline against Scrapy 2.8's on the
 * same local site, one after the other, each crawler a process of its own:
 * 2,000 images (source-images.ts: 12 generated pictures served under 2,000
 * URLs), each stored as a JPEG with two thumbnails (small 50×50, big
 * 270×270). Prints images/s, CPU seconds and peak RSS, and the ratio against
 * issue 23's goal (≥ 3× Scrapy's images/s, peak RSS ≤ 200 MB). Then a
 * 1 GB gzip feed delivered to an S3 server (feed-run.ts). See
 * docs/performance.md ("Media").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runCrawler, type CrawlerCommand, type CrawlerMeasurement } from '../crawl/crawler-run.js';
import { feedReport, runFeedBench } from './feed-run.js';
import { startJsonProcess } from './json-process.js';
import { PER_PAGE } from './source-images.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '../..');

export const TARGET_SPEEDUP = 3;
export const TARGET_RSS_MB = 200;
const DEFAULT_IMAGES = 2000;
const THUMBS = ['small', 'big'];
const CRAWL_TIMEOUT_MS = 20 * 60_000;
/**
 * Both crawlers get these on the command line; the spiders set ITEM_PIPELINES
 * and IMAGES_THUMBS. Concurrency stays at both crawlers' defaults, what a user
 * has without tuning (CONCURRENT_REQUESTS 16, CONCURRENT_REQUESTS_PER_DOMAIN 8,
 * CONCURRENT_ITEMS 100, DOWNLOAD_DELAY 0).
 */
const SETTINGS: Readonly<Record<string, string>> = {
  LOG_LEVEL: 'INFO',
  TELNETCONSOLE_ENABLED: 'false',
};

const HELP = `Usage: npm run bench:media -- [options]

  --images N    images on the site (default ${DEFAULT_IMAGES}), ${PER_PAGE} per listing page
  --no-scrapy   do not run Scrapy
  --feed-mb N   size of the gzip feed sent to the S3 server, in MB of JSON Lines (default 1024)
  --no-feed     leave the feed part out
  --keep        keep the work folder (stores, feeds, logs) and print where it is
  --help        this text

seine runs from its build (npm run build); Scrapy with /usr/bin/python3
(Debian's python3-scrapy and python3-pil), or $SEINE_BENCH_PYTHON.
$SEINE_BENCH_NODE_ARGS: node options for seine's process (e.g. --cpu-prof).
`;

interface Options { images: number; scrapy: boolean; feedMb: number; keep: boolean; help: boolean }

export function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      images: { type: 'string' },
      'no-scrapy': { type: 'boolean', default: false },
      'feed-mb': { type: 'string' },
      'no-feed': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const images = values.images === undefined ? DEFAULT_IMAGES : Number(values.images);
  if (!Number.isInteger(images) || images < 1) throw new Error(`--images ${JSON.stringify(values.images)} is not a whole number ≥ 1; e.g. --images ${DEFAULT_IMAGES}`);
  const feedMb = values['no-feed'] ? 0 : Number(values['feed-mb'] ?? 1024);
  if (!Number.isFinite(feedMb) || feedMb < 0) throw new Error(`--feed-mb ${JSON.stringify(values['feed-mb'])} is not a number of MB; e.g. --feed-mb 1024`);
  return { images, scrapy: !values['no-scrapy'], feedMb, keep: values.keep, help: values.help };
}

function scrapyPython(): { python: string; version: string } | { problem: string } {
  const python = process.env.SEINE_BENCH_PYTHON ?? '/usr/bin/python3';
  const probe = spawnSync(python, ['-c', 'import scrapy, PIL; print(scrapy.__version__, PIL.__version__)'], { encoding: 'utf8' });
  if (probe.status === 0) return { python, version: probe.stdout.trim().replace(' ', ', Pillow ') };
  return { problem: `'${python} -c "import scrapy, PIL"' failed: install Debian's python3-scrapy and python3-pil, or set SEINE_BENCH_PYTHON` };
}

function countFiles(dir: string): number {
  return existsSync(dir) ? readdirSync(dir).length : 0;
}

export interface Result { m: CrawlerMeasurement; served: number; full: number; thumbs: number[] }

async function measure(command: CrawlerCommand, store: string, site: string): Promise<Result> {
  const [load] = loadavg();
  // The site idles between runs, so anything above ~0.5 is someone else's work on the 2 cores.
  if (load! > 0.5) console.log(`${command.crawler}: note: load average ${load!.toFixed(2)} before this run: the figures may be low`);
  process.stdout.write(`${command.crawler}: crawling… `);
  const m = await runCrawler(command, CRAWL_TIMEOUT_MS);
  const served = ((await (await fetch(`${site}/__served`)).json()) as { images: number }).images;
  console.log(`${m.wallSeconds.toFixed(1)} s, exit ${m.exitCode}`);
  return { m, served, full: countFiles(join(store, 'full')), thumbs: THUMBS.map((name) => countFiles(join(store, 'thumbs', name))) };
}

function command(crawler: 'seine' | 'Scrapy', work: string, site: string, pages: number, python: string): { cmd: CrawlerCommand; store: string } {
  const store = join(work, `${crawler}-store`);
  mkdirSync(store, { recursive: true });
  const feed = join(work, `${crawler}.jsonl`);
  const settings = Object.entries({ ...SETTINGS, IMAGES_STORE: store }).flatMap(([name, value]) => ['-s', `${name}=${value}`]);
  const args = ['-a', `site=${site}`, '-a', `pages=${pages}`, '-O', feed, ...settings];
  const cmd: CrawlerCommand =
    crawler === 'seine'
      ? { crawler, command: process.execPath, args: [...seineNodeArgs(), join(ROOT, 'bin', 'seine.js'), 'runspider', join(HERE, 'seine-spider.ts'), ...args], cwd: work, feed, log: join(work, 'seine.log') }
      : { crawler, command: python, args: ['-m', 'scrapy', 'runspider', join(HERE, 'scrapy_spider.py'), ...args], cwd: work, feed, log: join(work, 'scrapy.log') };
  return { cmd, store };
}

/** $SEINE_BENCH_NODE_ARGS: node options for seine's process only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it. */
function seineNodeArgs(): string[] {
  return (process.env.SEINE_BENCH_NODE_ARGS ?? '').split(/\s+/).filter((arg) => arg !== '');
}

const fixed = (value: number, digits: number): string =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—';

export function report(results: Result[], images: number): string[] {
  const header = ['crawler', 'images', 'thumbs', 'items', 'seconds', 'images/s', 'CPU s', 'CPU ms/image', 'peak RSS MB'];
  const rows = results.map(({ m, full, thumbs }) => [
    m.crawler, String(full), thumbs.join('+'), String(m.feedItems), fixed(m.wallSeconds, 1), fixed(full / m.wallSeconds, 1),
    fixed(m.cpuSeconds, 1), fixed((m.cpuSeconds * 1000) / full, 1), fixed(m.peakRssBytes / 1024 / 1024, 1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const lines = [line(header), ...rows.map(line)];
  lines.push('');
  for (const { m, full, thumbs, served } of results) {
    if (full !== images || thumbs.some((t) => t !== images)) lines.push(`warning: ${m.crawler} stored ${full} images and ${thumbs.join('+')} thumbnails of ${images} (log: ${m.crawler.toLowerCase()}.log)`);
    if (served !== images) lines.push(`warning: the site served ${served} images to ${m.crawler}, not ${images}`);
  }
  const seine = results.find((r) => r.m.crawler === 'seine')!;
  const scrapy = results.find((r) => r.m.crawler === 'Scrapy');
  const rssMb = seine.m.peakRssBytes / 1024 / 1024;
  if (scrapy !== undefined) {
    const speedup = seine.full / seine.m.wallSeconds / (scrapy.full / scrapy.m.wallSeconds);
    lines.push(`seine/Scrapy images/s: ${fixed(speedup, 2)}× (goal ≥ ${TARGET_SPEEDUP}×: ${speedup >= TARGET_SPEEDUP ? 'met' : 'NOT met'}); CPU per image: ${fixed((seine.m.cpuSeconds / seine.full) / (scrapy.m.cpuSeconds / scrapy.full), 2)}× Scrapy's`);
  }
  lines.push(`seine peak RSS: ${fixed(rssMb, 1)} MB (goal ≤ ${TARGET_RSS_MB} MB: ${rssMb <= TARGET_RSS_MB ? 'met' : 'NOT met'})`);
  if (results.some((r) => r.m.source === 'proc')) lines.push('note: /usr/bin/time is missing; CPU and RSS were sampled from /proc every 50 ms');
  return lines;
}

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2));
  if (opts.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error("seine is not built (dist/cli/main.js is missing): run 'npm run build' first");
  const scrapy = opts.scrapy ? scrapyPython() : null;
  const work = mkdtempSync(join(tmpdir(), 'seine-bench-media-'));
  const { info, process: siteProcess } = await startJsonProcess<{ url: string }>(join(HERE, 'site-server.ts'), [String(opts.images)]);
  const site = { url: info.url };
  const pages = Math.ceil(opts.images / PER_PAGE);
  try {
    console.log(`seine media benchmark — node ${process.versions.node}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}`);
    console.log(`site: ${opts.images.toLocaleString('en-US')} images on ${pages} pages at ${site.url} (12 generated pictures, 26–157 KB, under distinct URLs); thumbs small 50×50, big 270×270; default concurrency (16 requests, 8 per domain, 100 items); ${Object.entries(SETTINGS).map(([k, v]) => `${k}=${v}`).join(' ')}`);
    if (scrapy !== null) console.log('version' in scrapy ? `Scrapy ${scrapy.version} (${scrapy.python})` : `Scrapy skipped: ${scrapy.problem}`);
    const results: Result[] = [];
    const seine = command('seine', work, site.url, pages, '');
    results.push(await measure(seine.cmd, seine.store, site.url));
    if (scrapy !== null && 'version' in scrapy) {
      const peer = command('Scrapy', work, site.url, pages, scrapy.python);
      results.push(await measure(peer.cmd, peer.store, site.url));
    }
    console.log('');
    for (const line of report(results, opts.images)) console.log(line);
    let feedOk = true;
    if (opts.feedMb > 0) {
      console.log('');
      const feed = await runFeedBench({ mb: opts.feedMb, work, site: site.url, root: ROOT, timeoutMs: CRAWL_TIMEOUT_MS });
      for (const line of feedReport(feed)) console.log(line);
      feedOk = feed.m.exitCode === 0;
    }
    if (opts.keep) console.log(`\nstores, feeds and logs: ${work}`);
    return results.every((r) => r.m.exitCode === 0) && feedOk ? 0 : 1;
  } finally {
    siteProcess.kill('SIGTERM');
    if (!opts.keep) rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(`bench:media: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
