/**
 * `npm run bench:browser [-- --pages N]`: pages rendered in Chromium per
 * second and the peak memory it takes, with 1 and with 4 browser contexts,
 * side by side with plain downloads of the same pages (which find no
 * quotes: the site writes them with a script). Then a long rendered crawl
 * (`--long N` pages, 1,000 by default) whose memory is sampled over time,
 * to show it stays bounded while contexts are recycled.
 *
 * Memory is the resident set of the seine process plus every browser
 * process under it, sampled from /proc every 100 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

function treeRssMb(root: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]));
    } catch {
      // gone
    }
  }
  const inTree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!inTree.has(pid) && inTree.has(parent)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  let kb = 0;
  for (const pid of inTree) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

function startSite(pages: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'site-server.ts'), String(pages)], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ url: (JSON.parse(line) as { url: string }).url, child }));
  });
}

interface RunResult {
  label: string;
  pages: number;
  items: number;
  seconds: number;
  peakMb: number;
  samples: Array<{ seconds: number; mb: number; pages: number }>;
}

async function crawl(label: string, url: string, pages: number, settings: Record<string, string>, render: boolean, folder: string): Promise<RunResult> {
  const feed = join(folder, `${label.replace(/\W+/g, '-')}.jsonl`);
  const args = [join(ROOT, 'bin', 'seine.js'), 'runspider', join(HERE, 'spider.ts'), '-a', `base=${url}`, '-a', `pages=${pages}`, '-a', `render=${render ? 1 : 0}`,
    '-O', feed, '--loglevel', 'INFO', '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOGSTATS_INTERVAL=0',
    ...Object.entries(settings).flatMap(([name, value]) => ['-s', `${name}=${value}`])];
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let peakMb = 0;
  const samples: RunResult['samples'] = [];
  let lastSample = 0;
  const timer = setInterval(() => {
    const mb = treeRssMb(child.pid!);
    peakMb = Math.max(peakMb, mb);
    const seconds = (performance.now() - started) / 1000;
    if (seconds - lastSample >= 5) {
      lastSample = seconds;
      let done = 0;
      try {
        done = readFileSync(feed, 'utf8').split('\n').length / 10;
      } catch {
        // not written yet
      }
      samples.push({ seconds, mb, pages: Math.round(done) });
    }
  }, 100);
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(timer);
  const seconds = (performance.now() - started) / 1000;
  if (status !== 0) throw new Error(`${label}: seine exited with ${status}\n${stderr}`);
  const items = readFileSync(feed, 'utf8').split('\n').filter((line) => line !== '').length;
  return { label, pages, items, seconds, peakMb, samples };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pages: { type: 'string', default: '200' }, long: { type: 'string', default: '1000' } } });
  const pages = Number(values.pages);
  const long = Number(values.long);
  const site = await startSite(Math.max(pages, long));
  const folder = mkdtempSync(join(tmpdir(), 'seine-bench-browser-'));
  try {
    const common = { CONCURRENT_REQUESTS: '16', CONCURRENT_REQUESTS_PER_DOMAIN: '16' };
    const runs = [
      await crawl('plain downloads', site.url, pages, common, false, folder),
      await crawl('rendered, 1 context × 8 pages', site.url, pages, { ...common, PLAYWRIGHT_MAX_CONTEXTS: '1', PLAYWRIGHT_MAX_PAGES_PER_CONTEXT: '8' }, true, folder),
      await crawl('rendered, 4 contexts × 2 pages', site.url, pages, { ...common, PLAYWRIGHT_MAX_CONTEXTS: '4', PLAYWRIGHT_MAX_PAGES_PER_CONTEXT: '2' }, true, folder),
      await crawl('rendered, 4 contexts × 4 pages', site.url, pages, { ...common, PLAYWRIGHT_MAX_CONTEXTS: '4', PLAYWRIGHT_MAX_PAGES_PER_CONTEXT: '4' }, true, folder),
    ];
    process.stdout.write(`\n${pages} pages, 10 script-written quotes each, CONCURRENT_REQUESTS 16, ${process.env['HOSTNAME'] ?? 'this machine'}\n\n`);
    process.stdout.write('| run | pages/s | items | peak RSS, seine + browser |\n|---|---|---|---|\n');
    for (const run of runs) {
      process.stdout.write(`| ${run.label} | ${(run.pages / run.seconds).toFixed(1)} | ${run.items} | ${run.peakMb.toFixed(0)} MB |\n`);
    }
    if (long > 0) {
      const soak = await crawl('long rendered crawl', site.url, long, { ...common, PLAYWRIGHT_MAX_CONTEXTS: '1', PLAYWRIGHT_MAX_PAGES_PER_CONTEXT: '8' }, true, folder);
      process.stdout.write(`\nA long rendered crawl: ${long} pages in ${soak.seconds.toFixed(0)} s (${(long / soak.seconds).toFixed(1)} pages/s), ${soak.items} items, peak ${soak.peakMb.toFixed(0)} MB\n`);
      process.stdout.write('| seconds | pages done | RSS, seine + browser |\n|---|---|---|\n');
      for (const sample of soak.samples) process.stdout.write(`| ${sample.seconds.toFixed(0)} | ${sample.pages} | ${sample.mb.toFixed(0)} MB |\n`);
    }
  } finally {
    site.child.stdin!.end();
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
