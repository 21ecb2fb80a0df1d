/**
 * `npm run bench:blocking`: the guarded site (guarded-site.ts) crawled by
 * seine and by Crawlee 3.18, each as a process of its own, through the same
 * client proxies (client-proxy.ts), at the same rate and session usage:
 *
 *   node --import tsx bench/blocking/run.ts [--runs N] [--no-crawlee] [--no-seine] [--crawlee-rate N]… [--crawlee-adaptive]
 *
 * Prints one row per crawl: items found (of the catalogue) and duplicates,
 * requests the site answered, the ones wasted (429, 403, captcha pages,
 * challenge redirects), bans, pages a browser rendered, wall time, CPU time
 * and peak RSS (GNU time; the browser's processes are the crawler's
 * children, so their CPU is counted). seine runs `seine runspider
 * seine-guarded.ts`; Crawlee runs crawlee-guarded.mjs (see each file for its
 * configuration; --crawlee-adaptive: one AdaptivePlaywrightCrawler for listings and
 * products instead of a PlaywrightCrawler and a CheerioCrawler). Crawlee is installed on first use into
 * bench/crawl/.peers/crawlee (bench/crawl/install-crawlee.sh).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runCrawler, type CrawlerCommand, type CrawlerMeasurement } from '../crawl/crawler-run.js';
import { CRAWLEE_DIR, ensureCrawlee, INSTALL_SCRIPT } from '../crawl/crawlee-peer.js';
import { findChromium } from '../../src/browser/find-chromium.js';
import { catalogue, startGuardedSite, type GuardedOptions, type GuardedStats } from './guarded-site.js';
import { startClientProxies } from './client-proxy.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..', '..');

/** The site: 100 products on 10 script-written listings, 20 orders behind a login; 20 requests per 10 s per address. */
export const SITE: Partial<GuardedOptions> = {
  lists: 10, perList: 10, accounts: 5, ordersPerAccount: 4,
  quota: 20, windowMs: 10_000, retryAfter: 2, captchaAfter: 15,
};
export const PROXIES = 4;
/** Both crawlers: at most this many requests per minute, crawl-wide (4 proxies × 2/s would be the quota). */
export const RATE_PER_MINUTE = 240;
/** Both crawlers retire a session after this many requests: more than the site's captcha threshold, so both meet captchas. */
export const MAX_USAGE = 20;
const TIMEOUT_MS = 10 * 60_000;
/** The name both crawlers know the site by (the proxies resolve it to 127.0.0.1). */
export const HOST = 'shop.guarded.test';

interface Row { crawler: string; run: CrawlerMeasurement; site: GuardedStats; found: number; duplicates: number; junk: number }

function crawlee(site: string, proxies: string[], dir: string, chromium: string, rate: number, adaptive: boolean): CrawlerCommand {
  return {
    crawler: `Crawlee 3.18${adaptive ? ' adaptive' : ''} (${rate}/min)`,
    command: process.execPath,
    args: [join(HERE, 'crawlee-guarded.mjs'), '--site', site, '--proxies', proxies.join(','), '--output', join(dir, 'crawlee.jsonl'),
      '--rate', String(rate), '--max-usage', String(MAX_USAGE), '--chromium', chromium, ...(adaptive ? ['--adaptive'] : [])],
    cwd: dir, feed: join(dir, 'crawlee.jsonl'), log: join(dir, 'crawlee.log'),
  };
}

function seine(site: string, proxies: string[], dir: string): CrawlerCommand {
  const settings = {
    PROXY_LIST: JSON.stringify(proxies),
    DOWNLOAD_SLOTS: JSON.stringify({ [HOST]: { rate: `${RATE_PER_MINUTE}/m` } }),
    SESSIONS_MAX_USAGE: String(MAX_USAGE),
    SESSIONS_POOL_SIZE: String(PROXIES * 2),
    PLAYWRIGHT_LAUNCH_OPTIONS: JSON.stringify({ args: ['--no-sandbox'] }),
    LOG_LEVEL: 'INFO',
  };
  return {
    crawler: 'seine',
    command: process.execPath,
    args: [join(ROOT, 'bin', 'seine.js'), 'runspider', join(HERE, 'seine-guarded.ts'), '-a', `site=${site}`, '-O', join(dir, 'seine.jsonl'),
      ...Object.entries(settings).flatMap(([k, v]) => ['-s', `${k}=${v}`])],
    cwd: dir, feed: join(dir, 'seine.jsonl'), log: join(dir, 'seine.log'),
  };
}

/** Items of the catalogue found, found more than once, and items that are not in it (e.g. read from a captcha page). */
function check(feed: string): { found: number; duplicates: number; junk: number } {
  const { products, orders } = catalogue(SITE);
  const known = new Map<string, string>([...products.map((p) => [p.id, JSON.stringify(p)] as const), ...orders.map((o) => [o.id, JSON.stringify({ id: o.id, total: o.total })] as const)]);
  const seen = new Set<string>();
  let duplicates = 0;
  let junk = 0;
  const lines = existsSync(feed) ? readFileSync(feed, 'utf8').split('\n').filter(Boolean) : [];
  for (const line of lines) {
    const item = JSON.parse(line) as Record<string, unknown>;
    const id = String(item['id']);
    if (known.get(id) !== JSON.stringify(item)) junk++;
    else if (seen.has(id)) duplicates++;
    else seen.add(id);
  }
  return { found: seen.size, duplicates, junk };
}

function table(rows: Row[]): string {
  const total = catalogue(SITE).products.length + catalogue(SITE).orders.length;
  const head = ['crawler', 'items', 'dup/junk', 'requests', '429', '403', 'captcha', 'challenge', 'bans', 'rendered', 'wall s', 'CPU s', 'peak MB'];
  const body = rows.map(({ crawler, run, site, found, duplicates, junk }) => [
    crawler, `${found}/${total}`, `${duplicates}/${junk}`, String(site.requests), String(site.limited), String(site.forbidden), String(site.captchas),
    String(site.challengeRedirects + site.challenges), String(site.bans),
    Object.entries(site.renderedByKind).map(([kind, n]) => `${n} ${kind}`).join(', ') || '0',
    run.wallSeconds.toFixed(1), run.cpuSeconds.toFixed(2), (run.peakRssBytes / 2 ** 20).toFixed(0),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

/** seine runs from its build, as users run it: say so when src/ has changed since. */
function buildNote(): string | null {
  const newest = (dir: string, ext: string): number =>
    readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith(ext))
      .reduce((max, e) => Math.max(max, statSync(join(e.parentPath, e.name)).mtimeMs), 0);
  const main = join(ROOT, 'dist', 'cli', 'main.js');
  if (!existsSync(main)) return `seine is not built (${main} is missing): run 'npm run build' first`;
  return newest(join(ROOT, 'src'), '.ts') > newest(join(ROOT, 'dist'), '.js') ? "note: src/ has changes newer than dist/: run 'npm run build' to measure them" : null;
}

export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { runs: { type: 'string', default: '1' }, 'crawlee-rate': { type: 'string', multiple: true }, 'crawlee-adaptive': { type: 'boolean' }, 'no-crawlee': { type: 'boolean' }, 'no-seine': { type: 'boolean' } } });
  const chromium = findChromium(undefined);
  const note = values['no-seine'] === true ? null : buildNote();
  if (note !== null) console.log(note);
  let withCrawlee = values['no-crawlee'] !== true;
  if (withCrawlee) {
    let ready = ensureCrawlee(console.log);
    if ('version' in ready && !existsSync(join(CRAWLEE_DIR, 'node_modules', '@crawlee', 'playwright', 'package.json'))) {
      console.log('Crawlee\'s PlaywrightCrawler is missing: installing it…');
      spawnSync('bash', [INSTALL_SCRIPT], { stdio: 'inherit' });
      ready = ensureCrawlee(console.log);
    }
    if ('problem' in ready) {
      console.log(ready.problem);
      withCrawlee = false;
    }
  }
  const site = await startGuardedSite(SITE);
  const proxies = await startClientProxies(PROXIES, { hosts: { [HOST]: '127.0.0.1' } });
  const origin = site.origin.replace('127.0.0.1', HOST);
  const dir = mkdtempSync(join(tmpdir(), 'seine-bench-blocking-'));
  const rows: Row[] = [];
  // maxRequestsPerMinute is a budget per sliding minute, spent in a burst when the site answers fast: --crawlee-rate
  // (repeatable) runs Crawlee at lower budgets too, to find one the site does not ban.
  const crawleeRates = (values['crawlee-rate'] ?? [String(RATE_PER_MINUTE)]).map(Number);
  console.log(
    `guarded site ${origin}: ${JSON.stringify(SITE)}; ${PROXIES} proxies; seine at ${RATE_PER_MINUTE} requests/min, ` +
      `Crawlee at ${crawleeRates.join(', ')}; sessions retired after ${MAX_USAGE} requests; ${cpus().length} cores; chromium ${chromium}`,
  );
  try {
    for (let i = 0; i < Number(values.runs); i++) {
      const commands = [...(values['no-seine'] === true ? [] : [seine(origin, proxies.urls, dir)]), ...(withCrawlee ? crawleeRates.map((rate) => crawlee(origin, proxies.urls, dir, chromium, rate, values['crawlee-adaptive'] === true)) : [])];
      for (const command of commands) {
        site.reset();
        const run = await runCrawler(command, TIMEOUT_MS);
        if (run.exitCode !== 0) console.log(`${command.crawler} exited with ${run.exitCode}: see ${command.log}`);
        rows.push({ crawler: command.crawler, run, site: site.stats(), ...check(command.feed) });
        console.log(table(rows.slice(-1)).split('\n').at(-1));
      }
    }
  } finally {
    await site.close();
    await proxies.close();
  }
  console.log(`\n${table(rows)}`);
  if (process.env['SEINE_BENCH_KEEP'] === undefined) rmSync(dir, { recursive: true, force: true });
  else console.log(`logs and feeds kept in ${dir}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
