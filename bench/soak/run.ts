/**
 * `npm run bench:soak [-- --pages N] [-- --every S]`: a long local crawl
 * (200,000 pages by default) with seine's crawl-benchmark spider, printing
 * the crawler's RSS and pages/s over time, then whether RSS stayed flat and
 * how the last 10 % of the pages compared in speed with the first 10 %.
 *
 * The site runs in a process of its own (bench/soak/site-server.ts); the
 * crawler is the real binary (`seine runspider`), whose RSS is read from
 * /proc every few seconds. Items go to a JSON Lines feed in a temporary
 * folder, removed afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

interface Sample {
  seconds: number;
  pages: number;
  rssMb: number;
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

async function served(url: string): Promise<number> {
  const response = await fetch(`${url}/__count`);
  return ((await response.json()) as { served: number }).served;
}

function startSite(pages: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'site-server.ts'), String(pages)], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ url: (JSON.parse(line) as { url: string }).url, child }));
  });
}

/** Pages per second between the samples where the crawl passed `from` and `to` (fractions of all pages). */
function rateBetween(samples: Sample[], total: number, from: number, to: number): number {
  const first = samples.find((s) => s.pages >= total * from) ?? samples[0]!;
  const last = samples.find((s) => s.pages >= total * to) ?? samples.at(-1)!;
  return last.seconds === first.seconds ? 0 : (last.pages - first.pages) / (last.seconds - first.seconds);
}

const { values } = parseArgs({ options: { pages: { type: 'string', default: '200000' }, every: { type: 'string', default: '5' }, help: { type: 'boolean' } } });
if (values.help) {
  console.log('Usage: npm run bench:soak -- [--pages N (default 200000)] [--every SECONDS between samples (default 5)]');
  process.exit(0);
}
const pages = Number(values.pages);
const every = Number(values.every) * 1000;
if (!Number.isInteger(pages) || pages < 100) throw new Error(`--pages ${values.pages} is not a whole number ≥ 100, e.g. --pages 200000`);

const work = mkdtempSync(join(tmpdir(), 'seine-soak-'));
const site = await startSite(pages);
console.log(`seine soak benchmark — ${pages.toLocaleString('en')} pages at ${site.url}; samples every ${every / 1000} s`);
const started = Date.now();
const crawler = spawn(
  process.execPath,
  [join(ROOT, 'bin', 'seine.js'), 'runspider', join(ROOT, 'bench', 'crawl', 'seine-spider.ts'), '-a', `site=${site.url}`, '-o', join(work, 'items.jsonl'),
    '-s', 'CONCURRENT_REQUESTS=16', '-s', 'CONCURRENT_REQUESTS_PER_DOMAIN=16', '-s', 'LOG_LEVEL=INFO', '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOGSTATS_INTERVAL=0'],
  { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] },
);
let tail = '';
crawler.stderr!.setEncoding('utf8').on('data', (chunk: string) => (tail = (tail + chunk).slice(-4000)));
const samples: Sample[] = [];
console.log('seconds     pages  pages/s  RSS MB');
const timer = setInterval(() => {
  void served(site.url).then((count) => {
    const sample = { seconds: (Date.now() - started) / 1000, pages: count, rssMb: rssMb(crawler.pid!) };
    const previous = samples.at(-1);
    samples.push(sample);
    const rate = previous === undefined ? count / sample.seconds : (count - previous.pages) / (sample.seconds - previous.seconds);
    console.log(`${sample.seconds.toFixed(0).padStart(7)}  ${String(count).padStart(8)}  ${rate.toFixed(1).padStart(7)}  ${sample.rssMb.toFixed(1).padStart(6)}`);
  });
}, every);
const code = await new Promise<number | null>((resolve) => crawler.once('exit', resolve));
clearInterval(timer);
const total = await served(site.url);
site.child.kill('SIGTERM');
rmSync(work, { recursive: true, force: true });
const seconds = (Date.now() - started) / 1000;
if (code !== 0) {
  console.log(`the crawler exited with ${code}; its last lines:\n${tail}`);
  process.exit(1);
}
const inRange = (from: number, to: number) => samples.filter((s) => s.pages >= total * from && s.pages <= total * to).map((s) => s.rssMb);
const early = Math.max(...inRange(0.05, 0.15));
const late = Math.max(...inRange(0.85, 1));
const peak = Math.max(...samples.map((s) => s.rssMb));
const firstRate = rateBetween(samples, total, 0, 0.1);
const lastRate = rateBetween(samples, total, 0.9, 1);
console.log('');
console.log(`${total.toLocaleString('en')} pages in ${seconds.toFixed(0)} s: ${(total / seconds).toFixed(1)} pages/s overall`);
console.log(`RSS: ${early.toFixed(0)} MB around 10 % of the crawl, ${late.toFixed(0)} MB in its last 15 %, peak ${peak.toFixed(0)} MB`);
console.log(`pages/s: first 10 % ${firstRate.toFixed(1)}, last 10 % ${lastRate.toFixed(1)} (${((lastRate / firstRate - 1) * 100).toFixed(1)} %; target: no more than 20 % slower)`);
