import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, startSeine } from '../cli/fixtures/run-seine.js';
import { startSite, type Hit, type Route, type TestSite } from '../helpers/site-server.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

/**
 * Two real worker processes share a crawl through a real Redis; the site's
 * first answer is a 429 with Retry-After: 4. The worker that got it pauses
 * the slot, and the frontier holds the slot's requests back from the other
 * worker too: for those 4 seconds the site sees only what the other worker
 * had already leased.
 */

const PAGES = 60;
let site: TestSite;
let redis: RedisServer;
let dir: string;
let refusedOnce = false;

const SPIDER = `import { Spider, Request } from 'seine';

export default class Refused extends Spider {
  static name = 'refused';
  async *start() {
    // Leased first (higher priority): the 429 comes before the other pages.
    yield new Request(process.env.REFUSED_SITE + '/limited', { priority: 10, callback: this.parse });
    for (let n = 0; n < ${PAGES}; n++) yield new Request(process.env.REFUSED_SITE + '/r/' + n, { callback: this.parse });
  }
  parse(response) {
    return [{ path: new URL(response.url).pathname }];
  }
}
`;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const page: Route = (_req, res) => void setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html></html>'), 100);
  const routes: Record<string, Route> = {
    '/limited': (req, res) => {
      if (refusedOnce) return page(req, res);
      refusedOnce = true;
      res.writeHead(429, { 'Retry-After': '4', 'Content-Type': 'text/plain' }).end('slow down');
    },
  };
  for (let n = 0; n < PAGES; n++) routes[`/r/${n}`] = page;
  [site, redis] = await Promise.all([startSite(routes), startRedis()]);
  dir = mkdtempSync(join(tmpdir(), 'seine-shared-pause-'));
  writeFileSync(join(dir, 'refused.ts'), SPIDER);
}, 120_000);
afterAll(async () => {
  await Promise.all([site?.close(), redis?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

function worker(name: string) {
  return startSeine(
    [
      'runspider', 'refused.ts',
      '-s', 'SCHEDULER=redis', '-s', `REDIS_URL=${redis.url}`,
      // Leases per slot over all workers are not what holds the other worker back: the pause is.
      '-s', 'CONCURRENT_REQUESTS=4', '-s', 'CONCURRENT_REQUESTS_PER_DOMAIN=100', '-s', 'RETRY_BACKOFF_BASE=0',
      '-s', `USER_AGENT=${name}`, '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOG_LEVEL=INFO',
    ],
    dir,
    { REFUSED_SITE: site.url('').replace(/\/$/, '') },
  );
}

describe('a Retry-After under SCHEDULER=redis', () => {
  it('pauses the slot for every worker: only requests leased before the 429 reach the site until it is over', async () => {
    const workers = [worker('w1'), worker('w2')];
    const opened: number[] = [];
    await Promise.all(workers.map((w) => w.waitForLog(/Spider opened/).then(() => opened.push(Date.now()))));
    const runs = await Promise.all(workers.map((w) => w.done));
    expect(runs.map((run) => run.status)).toEqual([0, 0]);

    const refused = site.requests.find((hit) => hit.path === '/limited')!;
    const agent = (hit: Hit): string => String(hit.headers['user-agent']);
    const refuser = agent(refused);
    // Both workers were open while the pause lasted, so the other one could have fetched.
    expect(Math.max(...opened)).toBeLessThan(refused.at + 3000);
    const after = site.requests.filter((hit) => hit.at > refused.at);
    // Every page once, and /limited twice (refused, then retried).
    expect(site.requests).toHaveLength(PAGES + 2);
    // In the 4 s after the 429 (a little slack for the clocks) the site sees at most the requests the other worker had
    // leased before it (twice its CONCURRENT_REQUESTS=4), not the ~20 it fetches meanwhile without the shared pause.
    // The refusing worker's own requests sent together with the refused one (CONCURRENT_REQUESTS=4) arrive with it.
    const sentAlongside = (hit: Hit): boolean => agent(hit) === refuser && hit.at - refused.at < 200;
    const duringPause = after.filter((hit) => hit.at - refused.at < 3900 && !sentAlongside(hit));
    expect(duringPause.length).toBeLessThanOrEqual(8);
    for (const hit of duringPause) expect(agent(hit)).not.toBe(refuser);
    // The other worker fetched after the pause too.
    expect(after.some((hit) => hit.at - refused.at >= 3900 && agent(hit) !== refuser)).toBe(true);
    // The refused request itself is retried once the pause is over, not a Retry-After later again.
    const retried = after.find((hit) => hit.path === '/limited')!;
    expect(retried.at - refused.at).toBeGreaterThanOrEqual(3900);
    expect(retried.at - refused.at).toBeLessThan(7000);
  }, 60_000);
});
