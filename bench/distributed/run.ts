/**
 * `npm run bench:distributed`: what sharing a crawl through Redis costs and
 * gains. The crawl benchmark's site (bench/crawl) runs in a process of its
 * own, a redis-server of the benchmark's own beside it, and the crawl
 * benchmark's spider crawls it: once alone with the in-memory scheduler
 * (the baseline), then as 1, 2 and 4 worker processes sharing the crawl
 * (SCHEDULER=redis). Each set runs twice: against the site answering at once
 * (CPU-bound: what one machine's cores allow) and with a delay per page
 * (latency-bound: what a real site's response time allows, where workers
 * add concurrency). Prints pages/s, Redis commands, bytes and CPU per page,
 * the memory the duplicate filter takes per URL (set and Bloom filter), and
 * checks that the workers' feeds together hold exactly the baseline's items.
 * docs/distributed-scaling.md reads these figures.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runCrawler, type CrawlerCommand, type CrawlerMeasurement } from '../crawl/crawler-run.js';
import { siteHits, startSite } from '../crawl/site-process.js';
import { BenchRedis, redisServerVersion, type RedisFigures } from './redis-process.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '../..');
const SPIDER = join(ROOT, 'bench', 'crawl', 'seine-spider.ts');
const KEYS = 'seine:{crawlbench}:';

const HELP = `Usage: npm run bench:distributed -- [options]

  --pages N      pages of the synthetic site (default 2000)
  --delay MS     the latency-bound runs' delay per page (default 250; 0 skips them)
  --workers A,B  worker counts (default 1,2,4)
  --starts N     start pages of the wide latency-bound runs (default 20)
  --local        no Redis: the worker counts are --workers N of one seine crawl (one queue kept by the
                 process started, docs/workers.md), with CONCURRENT_REQUESTS_PER_DOMAIN=16 over all workers
  --keep         keep the work folder (feeds, logs) and print where it is
  --help         this text

Needs redis-server (6.2 or later) on PATH: npm test installs it (scripts/install-test-deps.sh).
`;

/** Per worker; CONCURRENT_REQUESTS_PER_DOMAIN is crawl-wide with SCHEDULER=redis, so it is high enough for 4 × 16. */
const SETTINGS: Readonly<Record<string, string>> = {
  CONCURRENT_REQUESTS: '16',
  CONCURRENT_REQUESTS_PER_DOMAIN: '64',
  DOWNLOAD_DELAY: '0',
  ROBOTSTXT_OBEY: 'false',
  LOG_LEVEL: 'INFO',
  TELNETCONSOLE_ENABLED: 'false',
  MEMUSAGE_ENABLED: 'false',
};

const CRAWL_TIMEOUT_MS = 20 * 60_000;

interface RunResult {
  label: string;
  workers: number;
  seconds: number;
  pages: number;
  /** Distinct feed lines across the workers' feeds, and all lines. */
  distinctItems: number;
  items: number;
  cpuSeconds: number;
  peakRssMb: number;
  redis: RedisFigures | null;
  /** MEMORY USAGE of the duplicate filter (the seen set or the Bloom filter) and how many URLs it holds. */
  filterBytes: number | null;
  filterUrls: number | null;
  failed: string[];
}

function options() {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '2000' },
      delay: { type: 'string', default: '250' },
      workers: { type: 'string', default: '1,2,4' },
      starts: { type: 'string', default: '20' },
      keep: { type: 'boolean', default: false },
      local: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const pages = Number(values.pages);
  const delay = Number(values.delay);
  const workers = values.workers.split(',').map(Number);
  if (!Number.isInteger(pages) || pages < 2) throw new Error(`--pages ${JSON.stringify(values.pages)} is not a whole number ≥ 2; e.g. --pages 2000`);
  if (!Number.isFinite(delay) || delay < 0) throw new Error(`--delay ${JSON.stringify(values.delay)} is not a number of milliseconds ≥ 0; e.g. --delay 100`);
  if (workers.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--workers ${JSON.stringify(values.workers)} is not a list of whole numbers ≥ 1; e.g. --workers 1,2,4`);
  const starts = Number(values.starts);
  if (!Number.isInteger(starts) || starts < 1 || starts > pages) throw new Error(`--starts ${JSON.stringify(values.starts)} is not a whole number between 1 and --pages; e.g. --starts 20`);
  return { pages, delay, workers, starts, keep: values.keep, local: values.local, help: values.help };
}



interface SiteUnderTest {
  readonly url: string;
  readonly pages: number;
  /** Start pages, spread over the site: how many parts of it are crawled at once. */
  readonly starts: number;
}

function workerCommand(work: string, site: SiteUnderTest, name: string, extra: Record<string, string>): CrawlerCommand {
  const feed = join(work, `${name}.jsonl`);
  const settings = { ...SETTINGS, ...extra };
  return {
    crawler: name,
    command: process.execPath,
    args: [join(ROOT, 'bin', 'seine.js'), 'runspider', SPIDER, '-a', `site=${site.url}`, '-a', `starts=${site.starts}`, '-a', `pages=${site.pages}`, '-O', feed, ...Object.entries(settings).flatMap(([k, v]) => ['-s', `${k}=${v}`])],
    cwd: work,
    feed,
    log: join(work, `${name}.log`),
  };
}

function feedLines(measurements: readonly CrawlerMeasurement[], work: string): string[] {
  return measurements.flatMap((m) => {
    try {
      return readFileSync(join(work, `${m.crawler}.jsonl`), 'utf8').split('\n').filter((line) => line !== '');
    } catch {
      return [];
    }
  });
}

/** --local: one `seine runspider --workers N` (N = 1: the crawl alone); the one domain's 16 requests at once hold over all workers, as in one process. */
const LOCAL: Readonly<Record<string, string>> = { CONCURRENT_REQUESTS_PER_DOMAIN: '16' };

async function runLocal(label: string, workers: number, work: string, site: SiteUnderTest): Promise<RunResult> {
  const result = await run(label, 1, work, site, null, { ...LOCAL, WORKERS: String(workers) });
  return { ...result, workers };
}

async function run(label: string, workers: number, work: string, site: SiteUnderTest, redis: BenchRedis | null, extra: Record<string, string> = {}): Promise<RunResult> {
  process.stdout.write(`${label}: crawling… `);
  if (redis !== null) await redis.reset();
  // RESETSTAT zeroes the command and byte counters, not Redis's CPU time: that one is taken as a difference.
  const before = redis === null ? null : await redis.figures();
  await siteHits(site.url);
  const shared: Record<string, string> = redis === null ? {} : { SCHEDULER: 'redis', REDIS_URL: redis.url, REDIS_LEASE_SECS: '30' };
  const commands = Array.from({ length: workers }, (_, i) => workerCommand(work, site, `${label.replace(/\W+/g, '-')}-${i + 1}`, { ...shared, ...extra }));
  const measurements = await Promise.all(commands.map((command) => runCrawler(command, CRAWL_TIMEOUT_MS)));
  const hits = await siteHits(site.url);
  const lines = feedLines(measurements, work);
  let filterBytes: number | null = null;
  let filterUrls: number | null = null;
  if (redis !== null) {
    const bloom = extra.REDIS_DUPEFILTER === 'bloom';
    filterBytes = await redis.keyBytes(`${KEYS}${bloom ? 'bloom' : 'seen'}`);
    filterUrls = bloom ? Number(await redis.client.hget(`${KEYS}meta`, 'bloom_added')) : await redis.client.scard(`${KEYS}seen`);
  }
  const result: RunResult = {
    label,
    workers,
    seconds: Math.max(...measurements.map((m) => m.wallSeconds)),
    pages: hits.pages,
    distinctItems: new Set(lines).size,
    items: lines.length,
    cpuSeconds: measurements.reduce((sum, m) => sum + m.cpuSeconds, 0),
    peakRssMb: Math.max(...measurements.map((m) => m.peakRssBytes)) / 2 ** 20,
    redis: redis === null || before === null ? null : minus(await redis.figures(), before),
    filterBytes,
    filterUrls,
    failed: measurements.filter((m) => m.exitCode !== 0).map((m) => `${m.crawler} exited with status ${m.exitCode} (log: ${join(work, `${m.crawler}.log`)})`),
  };
  console.log(`${result.seconds.toFixed(1)} s`);
  return result;
}

function minus(after: RedisFigures, before: RedisFigures): RedisFigures {
  return { scripts: after.scripts - before.scripts, commands: after.commands - before.commands, bytes: after.bytes - before.bytes, cpuSeconds: after.cpuSeconds - before.cpuSeconds };
}

function table(results: readonly RunResult[], baseline: RunResult): string {
  const header = ['run', 'workers', 'pages', 'seconds', 'pages/s', 'speedup', 'CPU ms/page', 'peak RSS MB/worker', 'Redis scripts/page', 'Redis ops/page', 'Redis bytes/page', 'Redis CPU ms/page'];
  const rows = results.map((r) => {
    const perPage = (value: number): string => (r.pages > 0 ? (value / r.pages).toFixed(value / r.pages >= 100 ? 0 : 2) : '–');
    return [
      r.label,
      String(r.workers),
      String(r.pages),
      r.seconds.toFixed(2),
      (r.pages / r.seconds).toFixed(0),
      `${(r.pages / r.seconds / (baseline.pages / baseline.seconds)).toFixed(2)}×`,
      ((r.cpuSeconds * 1000) / r.pages).toFixed(2),
      r.peakRssMb.toFixed(0),
      r.redis === null ? '–' : perPage(r.redis.scripts),
      r.redis === null ? '–' : perPage(r.redis.commands),
      r.redis === null ? '–' : perPage(r.redis.bytes),
      r.redis === null ? '–' : ((r.redis.cpuSeconds * 1000) / r.pages).toFixed(3),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** The workers' feeds together hold the baseline's items, each once. */
function checks(results: readonly RunResult[], baseline: RunResult): string[] {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(...r.failed);
    if (r === baseline) continue;
    if (r.distinctItems !== baseline.distinctItems) lines.push(`${r.label}: the feeds hold ${r.distinctItems} distinct items, the baseline ${baseline.distinctItems}: items were lost or invented`);
    if (r.items !== r.distinctItems) lines.push(`${r.label}: ${r.items - r.distinctItems} items written twice`);
  }
  return lines;
}

/** One set of runs: the site they crawl (its pages, its delay per page, their start pages) and the heading they print under. */
interface SiteSet {
  name: string;
  title: string;
  pages: number;
  delay: number;
  starts: number;
}

/**
 * Each set against a site process of its own, stopped after the set however
 * it ended; `measure` runs the set's crawls, prints them and returns what
 * its checks found wrong. 1 when any set found something, else 0.
 */
async function measureSets(sets: readonly SiteSet[], measure: (set: SiteSet, site: SiteUnderTest) => Promise<string[]>): Promise<number> {
  let status = 0;
  for (const set of sets) {
    const server = await startSite(set.pages, set.delay);
    const site: SiteUnderTest = { url: server.url, pages: set.pages, starts: set.starts };
    try {
      console.log(`\n## ${set.title}`);
      if ((await measure(set, site)).length > 0) status = 1;
    } finally {
      server.process.kill('SIGTERM');
    }
  }
  return status;
}

async function main(): Promise<number> {
  const opts = options();
  if (opts.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (opts.local) return mainLocal(opts);
  const version = redisServerVersion();
  if (version === null) throw new Error('redis-server is not on PATH: run scripts/install-test-deps.sh (npm test runs it), or apt-get install redis-server');
  const work = mkdtempSync(join(tmpdir(), 'seine-bench-distributed-'));
  const redis = await BenchRedis.start();
  const sets: SiteSet[] = [{ name: 'cpu', pages: opts.pages, delay: 0, starts: 1, title: 'CPU-bound: the site answers at once' }];
  if (opts.delay > 0) {
    sets.push(
      { name: 'wide', pages: opts.pages, delay: opts.delay, starts: opts.starts, title: `latency-bound, wide: each page answers after ${opts.delay} ms; ${opts.starts} start pages` },
      {
        name: 'narrow',
        delay: opts.delay,
        starts: 1,
        pages: Math.max(2, Math.round(opts.pages / 4)),
        title: `latency-bound, narrow: ${Math.max(2, Math.round(opts.pages / 4))} pages, each answering after ${opts.delay} ms; one start page (~10 requests can be under way at once)`,
      },
    );
  }
  try {
    console.log(`seine distributed benchmark — node ${process.versions.node}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, redis-server ${version}`);
    console.log(`site: ${opts.pages.toLocaleString('en-US')} pages (bench/crawl's site, ~75 links a page); per worker: ${Object.entries(SETTINGS).map(([k, v]) => `${k}=${v}`).join(' ')}`);
    const status = await measureSets(sets, async (set, site) => {
      const baseline = await run(`${set.name} alone`, 1, work, site, null);
      const results = [baseline];
      for (const n of opts.workers) results.push(await run(`${set.name} redis ×${n}`, n, work, site, redis));
      if (set.name === 'cpu') results.push(await run(`${set.name} redis ×1 bloom`, 1, work, site, redis, { REDIS_DUPEFILTER: 'bloom', REDIS_BLOOM_CAPACITY: '1000000' }));
      console.log('');
      console.log(table(results, baseline));
      for (const r of results) {
        if (!r.label.includes('bloom') && r.filterBytes !== null && r.filterUrls !== null && r.filterUrls > 0) {
          console.log(`${r.label}: duplicate filter (set) ${(r.filterBytes / 1024).toFixed(0)} KiB for ${r.filterUrls} URLs = ${(r.filterBytes / r.filterUrls).toFixed(1)} B/URL`);
          break;
        }
      }
      const bloom = results.find((r) => r.label.includes('bloom'));
      if (bloom?.filterBytes != null) console.log(`${bloom.label}: Bloom filter ${(bloom.filterBytes / 1024).toFixed(0)} KiB, sized for 1,000,000 URLs: ${(bloom.filterBytes / 1e6).toFixed(2)} B/URL at capacity`);
      const problems = checks(results, baseline);
      console.log(problems.length === 0 ? `check: every shared run's feeds together hold the baseline's ${baseline.distinctItems} items, none twice` : problems.map((p) => `PROBLEM: ${p}`).join('\n'));
      return problems;
    });
    if (opts.keep) console.log(`\nfeeds and logs: ${work}`);
    return status;
  } finally {
    await redis.stop();
    if (!opts.keep) rmSync(work, { recursive: true, force: true });
  }
}

/** --local: the crawl alone, then with --workers N, CPU-bound and latency-bound; each pair alternated (the machine is shared). */
async function mainLocal(opts: ReturnType<typeof options>): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), 'seine-bench-workers-'));
  try {
    console.log(`seine --workers benchmark — node ${process.versions.node}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}`);
    console.log(`site: ${opts.pages.toLocaleString('en-US')} pages (bench/crawl's site); ${Object.entries({ ...SETTINGS, ...LOCAL }).map(([k, v]) => `${k}=${v}`).join(' ')}`);
    const sets: SiteSet[] = [{ name: 'cpu', pages: opts.pages, delay: 0, starts: 1, title: 'CPU-bound: the site answers at once' }];
    if (opts.delay > 0) sets.push({ name: 'latency', pages: opts.pages, delay: opts.delay, starts: opts.starts, title: `latency-bound: each page answers after ${opts.delay} ms` });
    const status = await measureSets(sets, async (set, site) => {
      const results: RunResult[] = [];
      for (const n of [1, ...opts.workers.filter((w) => w > 1)]) results.push(await runLocal(`${set.name} --workers ${n}`, n, work, site));
      console.log('');
      console.log(table(results, results[0]!));
      const problems = checks(results, results[0]!);
      console.log(problems.length === 0 ? `check: every run's feed holds the same ${results[0]!.distinctItems} items, none twice` : problems.map((p) => `PROBLEM: ${p}`).join('\n'));
      return problems;
    });
    if (opts.keep) console.log(`\nfeeds and logs: ${work}`);
    return status;
  } finally {
    if (!opts.keep) rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(`bench:distributed: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
