import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, startSeine } from '../cli/fixtures/run-seine.js';
import { startSite, type Route, type TestSite } from '../helpers/site-server.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

/**
 * Two real worker processes share one crawl through a real Redis, with
 * DOWNLOAD_SLOTS giving the site a rate of 4 requests a second: the site
 * sees 4 a second from both together, not 4 from each.
 */

const PAGES = 16;
let site: TestSite;
let redis: RedisServer;
let dir: string;

const SPIDER = `import { Spider, Request } from 'seine';

export default class Paced extends Spider {
  static name = 'paced';
  async *start() {
    for (let n = 0; n < ${PAGES}; n++) yield new Request(process.env.PACED_SITE + '/r/' + n, { callback: this.parse });
  }
  parse(response) {
    return [{ path: new URL(response.url).pathname }];
  }
}
`;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const routes: Record<string, Route> = {};
  for (let n = 0; n < PAGES; n++) routes[`/r/${n}`] = (_req, res) => void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html></html>');
  [site, redis] = await Promise.all([startSite(routes), startRedis()]);
  dir = mkdtempSync(join(tmpdir(), 'seine-shared-rate-'));
  writeFileSync(join(dir, 'paced.ts'), SPIDER);
}, 120_000);
afterAll(async () => {
  await Promise.all([site?.close(), redis?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

function worker(name: string) {
  return startSeine(
    [
      'runspider', 'paced.ts',
      '-s', 'SCHEDULER=redis', '-s', `REDIS_URL=${redis.url}`,
      '-s', 'DOWNLOAD_SLOTS={"127.0.0.1":{"rate":"4/s"}}',
      // Two requests leased at a time per worker: otherwise the first worker leases the whole queue before the second joins.
      '-s', 'CONCURRENT_REQUESTS=2',
      '-s', `USER_AGENT=${name}`, '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOG_LEVEL=INFO',
    ],
    dir,
    { PACED_SITE: site.url('').replace(/\/$/, '') },
  );
}

describe('DOWNLOAD_SLOTS rate under SCHEDULER=redis', () => {
  it("holds '4/s' over two worker processes together, and both finish", async () => {
    const first = worker('w1');
    await first.waitForLog(/Spider opened/);
    const second = worker('w2');
    const [a, b] = await Promise.all([first.done, second.done]);
    expect([a.status, b.status]).toEqual([0, 0]);
    expect(a.stderr).toContain('Closing spider (finished)');
    expect(b.stderr).toContain('Closing spider (finished)');

    const hits = site.requests.filter((hit) => hit.path.startsWith('/r/'));
    expect(new Set(hits.map((hit) => hit.path)).size).toBe(PAGES);
    expect(new Set(hits.map((hit) => String(hit.headers['user-agent'])))).toEqual(new Set(['w1', 'w2']));
    const starts = hits.map((hit) => hit.at).sort((x, y) => x - y);
    // 15 gaps of 250 ms at the least. Two workers each at 4/s alone would take half that (7 gaps, ~1.75 s).
    // 20 % slack: reservations run on Redis's clock and the starts are stamped by the site's, after each worker's own event loop.
    expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(15 * 250 * 0.8);
    // In any one-second window the site sees at most 4 starts, give or take one (a request that arrives late next to an on-time one).
    const most = Math.max(...starts.map((t) => starts.filter((u) => u >= t && u < t + 1000).length));
    expect(most).toBeLessThanOrEqual(5);
  }, 60_000);
});
