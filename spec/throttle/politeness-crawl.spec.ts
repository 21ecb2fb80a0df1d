import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Request, Spider, type Response } from '../../src/index.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';

/** A site that answers every /a/<n> and /b/<n> at once, and /limited with 429 + Retry-After: 2 the first time. */
let site: TestSite;
let limitedOnce = false;

beforeAll(async () => {
  const page = (_req: unknown, res: import('node:http').ServerResponse): void => {
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>ok</body></html>');
  };
  const routes: Record<string, (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void> = {};
  for (let n = 0; n < 40; n++) {
    routes[`/a/${n}`] = page;
    routes[`/b/${n}`] = page;
  }
  routes['/limited'] = (_req, res) => {
    if (!limitedOnce) {
      limitedOnce = true;
      res.writeHead(429, { 'Retry-After': '2', 'Content-Type': 'text/plain' }).end('slow down');
    } else {
      page(_req, res);
    }
  };
  site = await startSite(routes);
});
afterAll(() => site.close());
beforeEach(() => {
  site.reset();
  limitedOnce = false;
});

/** Start times, in ms, of the requests the site saw whose path starts with `prefix`. */
const startsOf = (prefix: string): number[] => site.requests.filter((hit) => hit.path.startsWith(prefix)).map((hit) => hit.at);
/** The most of `times` that fall in any window of `ms`. */
const mostWithin = (times: number[], ms: number): number => Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + ms).length));

/** Yields `count` requests per slot, each slot named by meta.download_slot (both on 127.0.0.1). */
function spiderFor(paths: Array<{ path: string; slot: string }>) {
  return class Listed extends Spider {
    static override name = 'listed';
    override async *start() {
      for (const { path, slot } of paths) yield new Request(site.url(path), { meta: { download_slot: slot }, callback: this.parse });
    }
    override *parse(response: Response) {
      yield { path: new URL(response.url).pathname };
    }
  };
}

const range = (prefix: string, count: number, slot: string) => Array.from({ length: count }, (_, n) => ({ path: `${prefix}/${n}`, slot }));

describe('DOWNLOAD_SLOTS in a crawl', () => {
  it("spaces a slot's starts by its rate: '10/s' → at least ~100 ms apart, though 8 could run at once", async () => {
    const result = await runCrawl(spiderFor(range('/a', 12, 'fast')), { DOWNLOAD_SLOTS: { fast: { rate: '10/s' } } });
    expect(result.reason).toBe('finished');
    expect(result.items).toHaveLength(12);
    const starts = startsOf('/a/');
    // 11 gaps of 100 ms as the crawler starts them. The server (in this process) reads its clock when it gets to a
    // request, which on a busy machine moves each one by tens of ms: ≥ 85 ms on average, and at most 5 in any 300 ms
    // (3 when on time), where a bucket of 10 tokens would send 10 at once.
    expect((starts.at(-1)! - starts[0]!) / 11).toBeGreaterThanOrEqual(85);
    expect(mostWithin(starts, 300)).toBeLessThanOrEqual(5);
  }, 20_000);

  it('gives a slot concurrency 1: never two of its requests at the server at once', async () => {
    const slow = (_req: unknown, res: import('node:http').ServerResponse): void => {
      setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html></html>'), 50);
    };
    const slowSite = await startSite(Object.fromEntries(Array.from({ length: 6 }, (_, n) => [`/s/${n}`, slow])));
    try {
      class Slow extends Spider {
        static override name = 'slow';
        override startUrls = Array.from({ length: 6 }, (_, n) => slowSite.url(`/s/${n}`));
        override parse() {}
      }
      const host = new URL(slowSite.url('/')).hostname;
      const result = await runCrawl(Slow, { DOWNLOAD_SLOTS: { [host]: { concurrency: 1 } }, CONCURRENT_REQUESTS_PER_DOMAIN: 8 });
      expect(result.reason).toBe('finished');
      expect(slowSite.hits).toHaveLength(6);
      expect(slowSite.inFlight.max).toBe(1);
    } finally {
      await slowSite.close();
    }
  }, 20_000);

  it('runs two slots with different rates independently', async () => {
    const paths = [...range('/a', 4, 'slow'), ...range('/b', 12, 'quick')];
    const result = await runCrawl(spiderFor(paths), { DOWNLOAD_SLOTS: { slow: { rate: '4/s' }, quick: { rate: '20/s' } } });
    expect(result.reason).toBe('finished');
    const slow = startsOf('/a/');
    const quick = startsOf('/b/');
    expect((slow.at(-1)! - slow[0]!) / 3).toBeGreaterThanOrEqual(210);
    expect((quick.at(-1)! - quick[0]!) / 11).toBeGreaterThanOrEqual(40);
    // The quick slot is not held to the slow one's pace: its 12 requests are done before the slow slot's 4th (~750 ms).
    expect(quick.at(-1)!).toBeLessThan(slow.at(-1)!);
  }, 20_000);
});

describe('Retry-After pauses the whole slot', () => {
  it('holds every request of the slot for the 2 s a 429 asked for, while another slot goes on', async () => {
    const paths = [{ path: '/limited', slot: 'site' }, ...range('/a', 5, 'site'), ...range('/b', 10, 'other')];
    const result = await runCrawl(spiderFor(paths), {
      CONCURRENT_REQUESTS_PER_DOMAIN: 1,
      // The retried request's own backoff is not what is measured: the pause of its slot is.
      RETRY_BACKOFF_BASE: 0,
      DOWNLOAD_SLOTS: { other: { rate: '10/s' } },
    });
    expect(result.reason).toBe('finished');
    expect(result.items).toHaveLength(16);
    const refused = site.requests.find((hit) => hit.path === '/limited')!.at;
    const sameSlot = site.requests.filter((hit) => hit.at > refused && (hit.path.startsWith('/a/') || hit.path === '/limited'));
    expect(sameSlot).toHaveLength(6);
    // No request of that slot reached the server in the 2 s after the 429 (a little slack for the clocks).
    for (const hit of sameSlot) expect(hit.at - refused).toBeGreaterThanOrEqual(1950);
    // The other slot was crawled meanwhile.
    const otherDuringPause = startsOf('/b/').filter((at) => at > refused && at < refused + 1900);
    expect(otherDuringPause.length).toBeGreaterThanOrEqual(5);
    expect(result.stats['throttle/slot_paused']).toBe(1);
    expect(result.lines.filter((line) => line.startsWith('Pausing download slot site for 2 s: '))).toHaveLength(1);
  }, 20_000);
});
