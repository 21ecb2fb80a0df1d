/**
 * A whole crawl of the guarded site (bench/blocking/guarded-site.ts) through
 * the seine binary, with the spider a user would write for it
 * (bench/blocking/seine-guarded.ts): proxies that reach the site from
 * distinct addresses, sessions that rotate on a captcha, a per-slot rate
 * that keeps each address under the site's quota, listing pages rendered
 * only because their links are written by a script, and an account area
 * pinned to the session that logged in. What a user would check after such
 * a crawl: every item of the catalogue exactly once, no ban, no item taken
 * from a captcha page, and the browser used for the script-written pages only.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogue, startGuardedSite, type GuardedOptions, type GuardedSite, type GuardedStats } from '../../bench/blocking/guarded-site.js';
import { startClientProxies, type ClientProxies } from '../../bench/blocking/client-proxy.js';
import { ensureBuilt, ROOT, runSeine, type SeineRun } from '../cli/fixtures/run-seine.js';

// Small enough for a test, large enough that the sessions cannot fetch every page before a captcha:
// 12 products + 3 listings over sessions that see a captcha on their 4th page. (At 5, a busy machine's
// crawl once met none: a session retired on a 429, or whose proxy rested, starts again with a new cookie.)
const SITE: Partial<GuardedOptions> = {
  lists: 3, perList: 4, accounts: 3, ordersPerAccount: 2,
  quota: 12, windowMs: 10_000, retryAfter: 2, captchaAfter: 3,
  // A request already on its way when a 429 is sent is not a ban; on a busy machine "on its way" can take a while.
  graceMs: 1000,
};
const PROXIES = 3;
// 3 proxies × 12 requests / 10 s = 3.6/s if the sessions spread requests evenly over them; 2/s leaves room for an uneven spread.
const RATE = '120/m';
// The site's name, which only the proxies resolve: every request must go through one.
const HOST = 'shop.guarded.test';

/** The numeric entries of seine's stats dump (`Dumping seine stats:`, printed as Python's pprint). */
function dumpedStats(stderr: string): Record<string, number> {
  const dump = /Dumping seine stats:\n([\s\S]*?\n)(?:\d{4}-\d\d-\d\d |$)/.exec(stderr)?.[1] ?? '';
  return Object.fromEntries([...dump.matchAll(/'([^']+)': (\d+(?:\.\d+)?)/g)].map((m) => [m[1]!, Number(m[2])]));
}

const sortById = (items: Array<Record<string, unknown>>) => [...items].sort((a, b) => String(a['id']).localeCompare(String(b['id']), 'en', { numeric: true }));

describe('a crawl of the guarded site (seine runspider, proxies, sessions, rate, auto rendering, a pinned login)', () => {
  let site: GuardedSite;
  let proxies: ClientProxies;
  let dir: string;
  let run: SeineRun;
  let items: Array<Record<string, unknown>>;
  let siteStats: GuardedStats;
  let stats: Record<string, number>;

  beforeAll(async () => {
    expect(await ensureBuilt()).toBe(true);
    site = await startGuardedSite(SITE);
    proxies = await startClientProxies(PROXIES, { auth: { user: 'crawler', password: 'pr0xy-s3cret' }, hosts: { [HOST]: '127.0.0.1' } });
    dir = mkdtempSync(join(tmpdir(), 'seine-guarded-'));
    run = await runSeine(
      [
        'runspider', join(ROOT, 'bench', 'blocking', 'seine-guarded.ts'),
        '-a', `site=${site.origin.replace('127.0.0.1', HOST)}`,
        '-s', `PROXY_LIST=${JSON.stringify(proxies.urls)}`,
        '-s', `DOWNLOAD_SLOTS=${JSON.stringify({ [HOST]: { rate: RATE } })}`,
        '-s', 'SESSIONS_POOL_SIZE=2',
        '-s', 'SESSIONS_MAX_USAGE=10',
        '-s', 'PLAYWRIGHT_LAUNCH_OPTIONS={"args":["--no-sandbox"]}',
        '-s', 'TELNETCONSOLE_ENABLED=false',
        '-O', 'items.jsonl',
      ],
      dir,
    );
    const feed = join(dir, 'items.jsonl');
    items = existsSync(feed) ? readFileSync(feed, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : [];
    siteStats = site.stats();
    stats = dumpedStats(run.stderr);
    if (process.env['GUARDED_DEBUG'] !== undefined) console.log(JSON.stringify({ siteStats, proxies: proxies.proxies.map((p) => p.counts), stats }, null, 1), run.stderr);
  }, 170_000);

  afterAll(async () => {
    await site?.close();
    await proxies?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('finishes', () => {
    expect({ status: run.status, tail: run.status === 0 ? '' : run.stderr.slice(-3000) }).toEqual({ status: 0, tail: '' });
  });

  it('scrapes every product and every order exactly once, and nothing else', () => {
    const { products, orders } = catalogue(SITE);
    expect(sortById(items.filter((item) => String(item['id']).startsWith('p')))).toEqual(products);
    expect(sortById(items.filter((item) => String(item['id']).startsWith('o')))).toEqual(orders.map(({ id, total }) => ({ id, total })));
    expect(items).toHaveLength(products.length + orders.length);
  });

  it('was never banned: it waited out every Retry-After it was given', () => {
    expect({ bans: siteStats.bans, forbidden: siteStats.forbidden }).toEqual({ bans: 0, forbidden: 0 });
  });

  it('went through every proxy, each its own client to the site, and never from its own address', () => {
    const clients = Object.keys(siteStats.requestsByClient).sort();
    expect(clients).toEqual(proxies.proxies.map((p) => p.localAddress).sort());
    // (A proxy may refuse a request without credentials: Chromium sends its first one without, and answers the 407.)
    expect(proxies.proxies.map((p) => p.counts.forwarded + p.counts.tunnels > 0)).toEqual(proxies.proxies.map(() => true));
  });

  it('met captchas, and retired their sessions instead of scraping them', () => {
    // Two sessions' worth of pages is less than the catalogue: a captcha was certain to come.
    expect(siteStats.captchas).toBeGreaterThan(0);
    // Each captcha page was a blocked response to seine (SESSIONS_BLOCKED_SELECTOR), so no callback saw it.
    expect(stats['sessions/blocked/selector']).toBe(siteStats.captchas);
  });

  it('logged in once and read the account area in that one session', () => {
    expect({ logins: siteStats.logins, loginRedirects: siteStats.loginRedirects, accountPages: siteStats.accountPages }).toEqual({
      logins: 1, loginRedirects: 0, accountPages: SITE.accounts,
    });
  });

  it('rendered the script-written listing pages, and only them', () => {
    // A listing rendered more than once is allowed (one that met a captcha in the browser is rendered again in another session).
    expect(siteStats.listingScripts).toBeGreaterThanOrEqual(SITE.lists!);
    expect(Object.keys(siteStats.renderedByKind)).toEqual(['list']);
    expect(stats['downloader/response_count']).toBeGreaterThan(0);
  });

  it('never logs the proxies\' credentials', () => {
    expect(run.stderr).not.toContain('pr0xy-s3cret');
    expect(run.stdout).not.toContain('pr0xy-s3cret');
  });
});
