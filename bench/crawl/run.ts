/**
 * `npm run bench:crawl`: seine, Scrapy 2.8 and Crawlee 3.18 (CheerioCrawler)
 * crawl the same synthetic local site with the same settings, one after the
 * other, each in a process of its own; prints pages/s, CPU ms per page and
 * peak RSS, and the ratios against issue 3's targets (Scrapy) and Crawlee.
 * See docs/performance.md ("Crawl benchmark").
 *
 * The site runs in a third process: on the 2-core machines the crawler
 * being measured has one core and the site the other.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runCrawler, type CrawlerCommand } from './crawler-run.js';
import { CRAWLEE_DIR, ensureCrawlee } from './crawlee-peer.js';
import { formatSummary, loadProfile, summarizeProfile } from './profile-summary.js';
import { medianRow, ratioLines, table, toRow, warnings, type CrawlerResult } from './report.js';
import { DEFAULT_PAGES, ENTRIES_PER_PAGE } from './site-page.js';
import { siteHits, startSite } from './site-process.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '../..');

const HELP = `Usage: npm run bench:crawl -- [options]

  --pages N     pages of the synthetic site (default ${DEFAULT_PAGES})
  --rounds N    crawl N times, the crawlers taking turns, and judge the medians (default 1)
  --no-scrapy   do not run Scrapy
  --no-crawlee  do not run Crawlee (nor install it)
  --profile     afterwards, crawl once more with seine under node --cpu-prof and summarize the profile
  --keep        keep the work folder (feeds, logs, profile) and print where it is
  --help        this text

Scrapy runs with /usr/bin/python3 (Debian's python3-scrapy), or $SEINE_BENCH_PYTHON.
Crawlee 3.18 runs from bench/crawl/.peers/crawlee/ (git-ignored, not a dependency of
seine); when it is missing there, bench/crawl/install-crawlee.sh installs it first.
`;

/** The settings seine and Scrapy get on their command line (issue 3, item 8); crawlee-spider.mjs sets Crawlee's equivalents. */
export const BENCH_SETTINGS: Readonly<Record<string, string>> = {
  CONCURRENT_REQUESTS: '16',
  CONCURRENT_REQUESTS_PER_DOMAIN: '16',
  DOWNLOAD_DELAY: '0',
  ROBOTSTXT_OBEY: 'true',
  LOG_LEVEL: 'INFO',
  TELNETCONSOLE_ENABLED: 'false',
};

/** A crawl of 2,000 pages takes seconds; this only stops a crawler that hangs. */
const CRAWL_TIMEOUT_MS = 20 * 60_000;

function settingArgs(): string[] {
  return Object.entries(BENCH_SETTINGS).flatMap(([name, value]) => ['-s', `${name}=${value}`]);
}

export interface BenchOptions {
  pages: number;
  rounds: number;
  scrapy: boolean;
  crawlee: boolean;
  profile: boolean;
  keep: boolean;
  help: boolean;
}

export function parseOptions(args: string[]): BenchOptions {
  const { values } = parseArgs({
    args,
    options: {
      pages: { type: 'string' },
      rounds: { type: 'string' },
      'no-scrapy': { type: 'boolean', default: false },
      'no-crawlee': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const pages = values.pages === undefined ? DEFAULT_PAGES : Number(values.pages);
  if (!Number.isInteger(pages) || pages < 2) throw new Error(`--pages ${JSON.stringify(values.pages)} is not a whole number ≥ 2; e.g. --pages ${DEFAULT_PAGES}`);
  const rounds = values.rounds === undefined ? 1 : Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds ${JSON.stringify(values.rounds)} is not a whole number ≥ 1; e.g. --rounds 3`);
  return { pages, rounds, scrapy: !values['no-scrapy'], crawlee: !values['no-crawlee'], profile: values.profile, keep: values.keep, help: values.help };
}

function newestMtime(dir: string, suffix: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(suffix)) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** seine runs as users run it, from its build: say so when the build is missing or older than src/. */
function checkBuild(): string | null {
  const dist = join(ROOT, 'dist');
  try {
    statSync(join(dist, 'cli', 'main.js'));
  } catch {
    throw new Error(`seine is not built (${join(dist, 'cli', 'main.js')} is missing): run 'npm run build' first`);
  }
  return newestMtime(join(ROOT, 'src'), '.ts') > newestMtime(dist, '.js') ? "note: src/ has changes newer than dist/: run 'npm run build' to measure them" : null;
}

function scrapyPython(): { python: string; version: string } | { python: string; problem: string } {
  const python = process.env.SEINE_BENCH_PYTHON ?? '/usr/bin/python3';
  const probe = spawnSync(python, ['-c', 'import scrapy; print(scrapy.__version__)'], { encoding: 'utf8' });
  if (probe.status === 0) return { python, version: probe.stdout.trim() };
  return { python, problem: `'${python} -c "import scrapy"' failed (${(probe.stderr || probe.error?.message || '').trim().split('\n').at(-1)}): install Debian's python3-scrapy, or set SEINE_BENCH_PYTHON` };
}



function loadNote(): string | null {
  const [oneMinute] = loadavg();
  // The site idles between runs, so anything above ~0.5 is someone else's work sharing the 2 cores.
  return oneMinute! > 0.5 ? `note: load average ${oneMinute!.toFixed(2)} before this run: other processes share the CPU, so the figures may be low` : null;
}

async function measure(command: CrawlerCommand, site: string): Promise<CrawlerResult> {
  const note = loadNote();
  if (note !== null) console.log(`${command.crawler}: ${note}`);
  process.stdout.write(`${command.crawler}: crawling… `);
  const measurement = await runCrawler(command, CRAWL_TIMEOUT_MS);
  const hits = await siteHits(site);
  console.log(`${measurement.wallSeconds.toFixed(1)} s`);
  return { measurement, hits };
}

function seineCommand(work: string, site: string, nodeFlags: string[] = []): CrawlerCommand {
  const feed = join(work, 'seine.jsonl');
  return {
    crawler: 'seine',
    command: process.execPath,
    args: [...nodeFlags, join(ROOT, 'bin', 'seine.js'), 'runspider', join(HERE, 'seine-spider.ts'), '-a', `site=${site}`, '-O', feed, ...settingArgs()],
    cwd: work,
    feed,
    log: join(work, 'seine.log'),
  };
}

/** Crawlee's settings, as crawlee-spider.mjs sets them (printed with its version). */
export const CRAWLEE_SETTINGS = 'minConcurrency=maxConcurrency=16 sameDomainDelaySecs=0 respectRobotsTxtFile=true log level INFO; storage in memory (persistStorage=false), no session pool, no statistics persistence';

function crawleeCommand(work: string, site: string, pages: number): CrawlerCommand {
  const feed = join(work, 'crawlee.jsonl');
  return {
    crawler: 'Crawlee',
    command: process.execPath,
    args: [join(HERE, 'crawlee-spider.mjs'), '--site', site, '--pages', String(pages), '--output', feed],
    cwd: work,
    feed,
    log: join(work, 'crawlee.log'),
  };
}

function scrapyCommand(work: string, site: string, python: string): CrawlerCommand {
  const feed = join(work, 'scrapy.jl');
  return {
    crawler: 'Scrapy',
    command: python,
    args: ['-m', 'scrapy', 'runspider', join(HERE, 'scrapy_spider.py'), '-a', `site=${site}`, '-O', feed, ...settingArgs()],
    cwd: work,
    feed,
    log: join(work, 'scrapy.log'),
  };
}

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2));
  if (opts.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const buildNote = checkBuild();
  const scrapy = opts.scrapy ? scrapyPython() : null;
  // Installing takes ~20 s: done before the site starts, never while a crawler is measured.
  const crawlee = opts.crawlee ? ensureCrawlee((line) => console.log(line)) : null;
  const work = mkdtempSync(join(tmpdir(), 'seine-bench-crawl-'));
  const site = await startSite(opts.pages);
  try {
    console.log(`seine crawl benchmark — node ${process.versions.node}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}`);
    console.log(`site: ${opts.pages.toLocaleString('en-US')} pages at ${site.url} (~12.7 KB, ${ENTRIES_PER_PAGE} entries, ~75 links each); settings: ${Object.entries(BENCH_SETTINGS).map(([k, v]) => `${k}=${v}`).join(' ')}`);
    if (scrapy !== null) console.log('version' in scrapy ? `Scrapy ${scrapy.version} (${scrapy.python})` : `Scrapy skipped: ${scrapy.problem}`);
    if (crawlee !== null) console.log('version' in crawlee ? `Crawlee ${crawlee.version} (CheerioCrawler from ${relative(ROOT, CRAWLEE_DIR)}/): ${CRAWLEE_SETTINGS}` : crawlee.problem);
    if (buildNote !== null) console.log(buildNote);
    const rounds: CrawlerResult[][] = [];
    for (let round = 1; round <= opts.rounds; round++) {
      if (opts.rounds > 1) console.log(`round ${round} of ${opts.rounds}`);
      const results: CrawlerResult[] = [await measure(seineCommand(work, site.url), site.url)];
      if (scrapy !== null && 'version' in scrapy) results.push(await measure(scrapyCommand(work, site.url, scrapy.python), site.url));
      if (crawlee !== null && 'version' in crawlee) results.push(await measure(crawleeCommand(work, site.url, opts.pages), site.url));
      rounds.push(results);
    }
    if (opts.rounds > 1) {
      console.log('');
      console.log(table(rounds.flat().map(toRow)));
      console.log(`\nmedians of ${opts.rounds} rounds:`);
    }
    const rows = rounds[0]!.map((_, i) => medianRow(rounds.map((results) => toRow(results[i]!))));
    const row = (crawler: string) => rows.find((r) => r.crawler === crawler) ?? null;
    console.log('');
    console.log(table(rows));
    console.log('seconds, pages/s and CPU ms/page are each crawler\'s whole process, from its start to its exit: start-up included, as users pay it');
    console.log('');
    for (const line of new Set(rounds.flatMap((results) => warnings(results, opts.pages, ENTRIES_PER_PAGE)))) console.log(line);
    for (const line of ratioLines(rows[0]!, row('Scrapy'), row('Crawlee'))) console.log(line);
    if (rounds.flat().some((r) => r.measurement.source === 'proc')) console.log('note: /usr/bin/time is missing; CPU and RSS were sampled from /proc every 50 ms');
    if (opts.profile) {
      const dir = join(work, 'profile');
      const profiled = await measure({ ...seineCommand(work, site.url, ['--cpu-prof', `--cpu-prof-dir=${dir}`]), crawler: 'seine (profiled)' }, site.url);
      const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      console.log('');
      console.log(file === undefined ? `no profile was written to ${dir}` : formatSummary(summarizeProfile(loadProfile(join(dir, file))), profiled.hits.pages));
    }
    if (opts.keep) console.log(`\nfeeds, logs and profiles: ${work}`);
    return rounds.flat().every((r) => r.measurement.exitCode === 0) ? 0 : 1;
  } finally {
    site.process.kill('SIGTERM');
    if (!opts.keep) rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(`bench:crawl: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
