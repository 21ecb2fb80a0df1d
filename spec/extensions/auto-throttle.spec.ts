import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NotConfigured } from '../../src/contracts/control-flow.js';
import { AUTOTHROTTLE_LOGGER, AutoThrottle } from '../../src/extensions/auto-throttle.js';
import { Request, Spider } from '../../src/index.js';
import { Response } from '../../src/http/response.js';
import { SettingsError } from '../../src/settings/settings-error.js';
import { DownloadSlots } from '../../src/throttle/download-slots.js';
import { fakeCrawler, type FakeCrawler } from '../helpers/fake-crawler.js';
import { runCrawl, slow, startSite, type TestSite } from '../helpers/site-server.js';
import { SCENARIOS } from './autothrottle-fixture.js';

/** A fake crawler whose download slots are real ones, as a running crawl has. */
function crawlerWithSlots(settings: Record<string, unknown>, spider?: Spider): FakeCrawler & { downloadSlots: DownloadSlots } {
  const crawler = fakeCrawler(settings, spider);
  const downloadSlots = DownloadSlots.fromCrawler(crawler, { random: () => 0.5 });
  return Object.assign(crawler, { downloadSlots });
}

/** A request that has started in slot `example.com`. */
function started(slots: DownloadSlots, n: number, meta: Record<string, unknown> = {}): Request {
  const request = new Request(`http://example.com/${n}`, { meta: { download_slot: 'example.com', ...meta } });
  slots.started(request, 0);
  return request;
}

function downloaded(crawler: FakeCrawler, request: Request, latency: number | undefined, status = 200, size = 10): void {
  if (latency !== undefined) request.meta['download_latency'] = latency;
  crawler.emit({ type: 'response_downloaded', request, response: new Response({ url: request.url, status, body: Buffer.alloc(size), request }) });
}

describe('AutoThrottle, alone', () => {
  it('is off (NotConfigured) unless AUTOTHROTTLE_ENABLED', () => {
    expect(() => AutoThrottle.fromCrawler(fakeCrawler())).toThrow(NotConfigured);
    expect(() => AutoThrottle.fromCrawler(fakeCrawler({ AUTOTHROTTLE_ENABLED: 'False', AUTOTHROTTLE_DEBUG: true }))).toThrow(NotConfigured);
  });

  it.each([
    ['0', 'Setting AUTOTHROTTLE_TARGET_CONCURRENCY must be greater than 0, got 0 (from -s AUTOTHROTTLE_TARGET_CONCURRENCY=0): it is the number of requests AutoThrottle aims to have in flight per site'],
    ['-1', 'Setting AUTOTHROTTLE_TARGET_CONCURRENCY must be greater than 0, got -1 (from -s AUTOTHROTTLE_TARGET_CONCURRENCY=-1): it is the number of requests AutoThrottle aims to have in flight per site'],
    ['nan', 'Setting AUTOTHROTTLE_TARGET_CONCURRENCY must be greater than 0, got NaN (from -s AUTOTHROTTLE_TARGET_CONCURRENCY=nan): it is the number of requests AutoThrottle aims to have in flight per site'],
  ])('refuses AUTOTHROTTLE_TARGET_CONCURRENCY=%s with a SettingsError', (value, message) => {
    const crawler = fakeCrawler({ AUTOTHROTTLE_ENABLED: true, AUTOTHROTTLE_TARGET_CONCURRENCY: value });
    expect(() => AutoThrottle.fromCrawler(crawler)).toThrow(SettingsError);
    expect(() => AutoThrottle.fromCrawler(crawler)).toThrow(message);
  });

  it('refuses a negative AUTOTHROTTLE_START_DELAY or AUTOTHROTTLE_MAX_DELAY', () => {
    expect(() => AutoThrottle.fromCrawler(fakeCrawler({ AUTOTHROTTLE_ENABLED: true, AUTOTHROTTLE_START_DELAY: -1 }))).toThrow(
      'Setting AUTOTHROTTLE_START_DELAY must be at least 0, got -1 (from -s AUTOTHROTTLE_START_DELAY=-1): it is the delay in seconds AutoThrottle starts each site with',
    );
    expect(() => AutoThrottle.fromCrawler(fakeCrawler({ AUTOTHROTTLE_ENABLED: true, AUTOTHROTTLE_MAX_DELAY: -2 }))).toThrow(
      'Setting AUTOTHROTTLE_MAX_DELAY must be at least 0, got -2 (from -s AUTOTHROTTLE_MAX_DELAY=-2): it is the longest delay in seconds AutoThrottle may set',
    );
  });

  it('starts new slots at max(AUTOTHROTTLE_START_DELAY, DOWNLOAD_DELAY) once the spider opens', () => {
    const crawler = crawlerWithSlots({ AUTOTHROTTLE_ENABLED: true, AUTOTHROTTLE_START_DELAY: 2, DOWNLOAD_DELAY: 0.5, RANDOMIZE_DOWNLOAD_DELAY: false });
    const extension = AutoThrottle.fromCrawler(crawler);
    expect(extension.limits).toEqual({ targetConcurrency: 1, minDelay: 0.5, maxDelay: 60 });
    expect(crawler.downloadSlots.newSlotDelayMs).toBe(500);
    crawler.emit({ type: 'spider_opened', spider: crawler.spider });
    expect(crawler.downloadSlots.newSlotDelayMs).toBe(2000);
    started(crawler.downloadSlots, 1);
    expect(crawler.downloadSlots.canStart(new Request('http://example.com/2', { meta: { download_slot: 'example.com' } }), 100)).toBe(1900);

    const slower = crawlerWithSlots({ AUTOTHROTTLE_ENABLED: true, AUTOTHROTTLE_START_DELAY: 2, DOWNLOAD_DELAY: 3 });
    slower.emit({ type: 'spider_opened', spider: slower.spider });
    AutoThrottle.fromCrawler(slower).spiderOpened();
    expect(slower.downloadSlots.newSlotDelayMs).toBe(3000);
  });

  it("takes the spider's downloadDelay as the minimum delay, over DOWNLOAD_DELAY", () => {
    class Polite extends Spider {
      static override name = 'polite';
      downloadDelay = 1.5;
    }
    const crawler = crawlerWithSlots({ AUTOTHROTTLE_ENABLED: true, AUTOTHROTTLE_START_DELAY: 1, DOWNLOAD_DELAY: 0.1 }, new Polite());
    const extension = AutoThrottle.fromCrawler(crawler);
    expect(extension.limits.minDelay).toBe(1.5);
    expect(extension.startDelay).toBe(1.5);
  });

  // seine parts from Scrapy on purpose at a 429 or 503 (the delay backs off: auto-throttle-backoff.spec.ts), so each
  // scenario is compared up to its first such response.
  const scrapysPart = (scenario: (typeof SCENARIOS)[number]): (typeof SCENARIOS)[number] => {
    const cut = scenario.steps.findIndex((step) => step.status === 429 || step.status === 503);
    return cut === -1 ? scenario : { ...scenario, steps: scenario.steps.slice(0, cut) };
  };
  it.each(SCENARIOS.map((s) => [s.name, scrapysPart(s)] as const))("%s: the slot's delays and debug lines are Scrapy's", (_name, scenario) => {
    const crawler = crawlerWithSlots({ AUTOTHROTTLE_ENABLED: true, AUTOTHROTTLE_DEBUG: true, ...scenario.settings });
    AutoThrottle.fromCrawler(crawler);
    crawler.emit({ type: 'spider_opened', spider: crawler.spider });
    const slots = crawler.downloadSlots;
    let n = 0;
    const delays: number[] = [];
    for (const step of scenario.steps) {
      const inFlight = Array.from({ length: step.transferring }, () => started(slots, n++));
      downloaded(crawler, inFlight[0]!, step.latency, step.status, step.size);
      delays.push(slots.slot('example.com')!.delayMs / 1000);
      for (const request of inFlight) slots.finished(request, 0);
    }
    delays.forEach((delay, i) => expect(delay).toBeCloseTo(scenario.steps[i]!.delay, 12));
    expect(crawler.lines(AUTOTHROTTLE_LOGGER)).toEqual(scenario.steps.map((step) => [AUTOTHROTTLE_LOGGER, 'INFO', step.log]));
  });

  it('leaves the delay alone without a latency, without a slot, or with meta.autothrottle_dont_adjust_delay', () => {
    const crawler = crawlerWithSlots({ AUTOTHROTTLE_ENABLED: true, AUTOTHROTTLE_DEBUG: true, AUTOTHROTTLE_START_DELAY: 1 });
    AutoThrottle.fromCrawler(crawler);
    crawler.emit({ type: 'spider_opened', spider: crawler.spider });
    const slots = crawler.downloadSlots;
    downloaded(crawler, started(slots, 1), undefined); // e.g. a response a middleware made
    downloaded(crawler, started(slots, 2, { autothrottle_dont_adjust_delay: true }), 0.1);
    downloaded(crawler, new Request('http://example.com/3', { meta: { download_latency: 0.1 } }), 0.1); // never went through the slots
    downloaded(crawler, new Request('http://other.com/', { meta: { download_slot: 'other.com' } }), 0.1); // no such slot
    expect(slots.slot('example.com')!.delayMs).toBe(1000);
    expect(crawler.lines(AUTOTHROTTLE_LOGGER)).toEqual([]);
    // Only `true` means "don't": Scrapy tests `is True`.
    downloaded(crawler, started(slots, 4, { autothrottle_dont_adjust_delay: 'yes' }), 0.1);
    expect(slots.slot('example.com')!.delayMs).toBe(550);
  });

  it('logs nothing without AUTOTHROTTLE_DEBUG, and stops listening when the spider closes', () => {
    const crawler = crawlerWithSlots({ AUTOTHROTTLE_ENABLED: true, AUTOTHROTTLE_START_DELAY: 1 });
    AutoThrottle.fromCrawler(crawler);
    crawler.emit({ type: 'spider_opened', spider: crawler.spider });
    downloaded(crawler, started(crawler.downloadSlots, 1), 0.2);
    expect(crawler.downloadSlots.slot('example.com')!.delayMs).toBe(600);
    crawler.emit({ type: 'spider_closed', reason: 'finished' });
    downloaded(crawler, started(crawler.downloadSlots, 2), 0.2);
    expect(crawler.downloadSlots.slot('example.com')!.delayMs).toBe(600);
    expect(crawler.lines(AUTOTHROTTLE_LOGGER)).toEqual([]);
  });

  it("keeps RANDOMIZE_DOWNLOAD_DELAY on top: the wait is 0.5–1.5 × the slot's adjusted delay", () => {
    const crawler = fakeCrawler({ AUTOTHROTTLE_ENABLED: true, AUTOTHROTTLE_START_DELAY: 2 });
    const slots = Object.assign(crawler, { downloadSlots: DownloadSlots.fromCrawler(crawler, { random: () => 0.9 }) }).downloadSlots;
    AutoThrottle.fromCrawler(crawler);
    crawler.emit({ type: 'spider_opened', spider: crawler.spider });
    const first = started(slots, 1); // draws the factor 0.5 + 0.9 = 1.4
    downloaded(crawler, first, 1); // delay: max(1, (2 + 1) / 2) = 1.5 s
    expect(slots.canStart(new Request('http://example.com/2', { meta: { download_slot: 'example.com' } }), 0)).toBeCloseTo(2100, 9);
  });
});

/** Real crawls against a server whose pages answer after LATENCY_MS. */
const LATENCY_MS = 150;
let site: TestSite;

beforeAll(async () => {
  site = await startSite({
    ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`/page/${n}`, slow(LATENCY_MS, `<html><body>page ${n}</body></html>`)])),
    ...Object.fromEntries([1, 2, 3].map((n) => [`/error/${n}`, (_req, res) => {
      setTimeout(() => res.writeHead(500, { 'Content-Type': 'text/html' }).end('<p>boom</p>'), LATENCY_MS);
    }])),
    '/warm-up': '<html><body>warm</body></html>',
  });
  // One crawl first, so that the modules a first download loads (the HTTP handler, got, the body
  // file writer — compiled on first import under jest, cold in CI) are loaded before the timed
  // crawls: otherwise the first request reaches the server up to ~75 ms late and the gap after it
  // looks that much shorter than the delay.
  await runCrawl(spiderFor(['/warm-up']));
});
afterAll(async () => {
  await site.close();
});

/** A spider that asks for `paths` from the start, with `meta` on each request. */
function spiderFor(paths: string[], meta: Record<string, unknown> = {}) {
  return class PagesSpider extends Spider {
    static override name = 'pages';
    override async *start() {
      for (const path of paths) yield new Request(site.url(path), { meta, callback: () => undefined });
    }
  };
}

/** Milliseconds between consecutive requests the server received for `prefix`. */
function gaps(prefix: string): number[] {
  const times = site.requests.filter((hit) => hit.path.startsWith(prefix)).map((hit) => hit.at);
  return times.slice(1).map((at, i) => at - times[i]!);
}

const DEBUG_LINE = /^slot: 127\.0\.0\.1 \| conc: 1 \| delay: *(\d+) ms \(([+-]\d+)\) \| latency: *(\d+) ms \| size: *(\d+) bytes$/;

/** The delay, latency and size of each AUTOTHROTTLE_DEBUG line of a crawl. */
function debugLines(logs: Awaited<ReturnType<typeof runCrawl>>['logs']): Array<{ delay: number; diff: number; latency: number; size: number }> {
  return logs
    .filter((log) => log.logger === AUTOTHROTTLE_LOGGER)
    .map((log) => {
      expect(log.level).toBe('INFO');
      const match = DEBUG_LINE.exec(log.message);
      if (match === null) throw new Error(`not an AutoThrottle line: ${log.message}`);
      return { delay: Number(match[1]), diff: Number(match[2]), latency: Number(match[3]), size: Number(match[4]) };
    });
}

const THROTTLED = { AUTOTHROTTLE_ENABLED: true, AUTOTHROTTLE_DEBUG: true, AUTOTHROTTLE_TARGET_CONCURRENCY: 1, RANDOMIZE_DOWNLOAD_DELAY: false };

describe('AutoThrottle in a crawl', () => {
  it('starts a site at the start delay and moves the gap between its requests towards the latency', async () => {
    site.reset();
    const { logs, stats } = await runCrawl(spiderFor(['/page/1', '/page/2', '/page/3', '/page/4']), { ...THROTTLED, AUTOTHROTTLE_START_DELAY: 0.5 });
    expect(stats['response_received_count']).toBe(4);
    const lines = debugLines(logs);
    expect(lines.map((line) => line.size)).toEqual([1, 2, 3, 4].map(() => Buffer.byteLength('<html><body>page 1</body></html>')));
    for (const line of lines) expect(line.latency).toBeGreaterThanOrEqual(LATENCY_MS);
    // From 500 ms: halfway to the latency after each response (about 325, 237, 193, 171 ms), never below it.
    const delays = lines.map((line) => line.delay);
    expect(delays[0]).toBeGreaterThanOrEqual(320);
    expect(delays[0]).toBeLessThan(420);
    expect(Math.abs(lines[0]!.diff - (delays[0]! - 500))).toBeLessThanOrEqual(1); // each truncated on its own
    for (let i = 1; i < delays.length; i++) {
      expect(delays[i]).toBeLessThan(delays[i - 1]!);
      expect(delays[i]).toBeGreaterThanOrEqual(lines[i]!.latency);
    }
    // The server saw the requests that far apart: each gap is the delay set by the response before it.
    // The margins are for arrival jitter on a loaded 2-core machine (a request that reaches the server
    // late shortens the next gap): measured up to ~30 ms under load; an unthrottled gap is < 10 ms.
    const seen = gaps('/page/');
    expect(seen).toHaveLength(3);
    seen.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(delays[i]! - 60);
      expect(gap).toBeLessThan(delays[i]! + 150);
    });
    expect(seen[2]).toBeLessThan(seen[0]!);
  });

  it('changes nothing when AUTOTHROTTLE_ENABLED is off: the requests go out together', async () => {
    site.reset();
    const { logs } = await runCrawl(spiderFor(['/page/1', '/page/2', '/page/3', '/page/4']), { ...THROTTLED, AUTOTHROTTLE_ENABLED: false });
    for (const gap of gaps('/page/')) expect(gap).toBeLessThan(100);
    expect(logs.filter((log) => log.logger === AUTOTHROTTLE_LOGGER)).toEqual([]);
  });

  it('never sets a delay above AUTOTHROTTLE_MAX_DELAY', async () => {
    site.reset();
    // The target, latency / 0.25 ≥ 600 ms, is above the 300 ms cap.
    const { logs } = await runCrawl(spiderFor(['/page/1', '/page/2', '/page/3']), {
      ...THROTTLED, AUTOTHROTTLE_START_DELAY: 0.2, AUTOTHROTTLE_TARGET_CONCURRENCY: 0.25, AUTOTHROTTLE_MAX_DELAY: 0.3,
    });
    expect(debugLines(logs).map((line) => line.delay)).toEqual([300, 300, 300]);
    for (const gap of gaps('/page/')) {
      expect(gap).toBeGreaterThanOrEqual(240); // less arrival jitter (see above)
      expect(gap).toBeLessThan(450);
    }
  });

  it('does not let a 500 response lower the delay', async () => {
    site.reset();
    const { logs } = await runCrawl(spiderFor(['/error/1', '/error/2', '/error/3']), { ...THROTTLED, AUTOTHROTTLE_START_DELAY: 0.4, RETRY_ENABLED: false });
    expect(debugLines(logs).map((line) => [line.delay, line.diff])).toEqual([[400, 0], [400, 0], [400, 0]]);
    for (const gap of gaps('/error/')) expect(gap).toBeGreaterThanOrEqual(340);
  });

  it('leaves the delay alone for requests with meta.autothrottle_dont_adjust_delay', async () => {
    site.reset();
    const { logs } = await runCrawl(spiderFor(['/page/1', '/page/2', '/page/3'], { autothrottle_dont_adjust_delay: true }), {
      ...THROTTLED, AUTOTHROTTLE_START_DELAY: 0.3,
    });
    expect(debugLines(logs)).toEqual([]);
    for (const gap of gaps('/page/')) {
      expect(gap).toBeGreaterThanOrEqual(240); // less arrival jitter (see above)
      expect(gap).toBeLessThan(450);
    }
  });

  it('records meta.download_latency, in seconds, on responses from the network', async () => {
    const latencies: unknown[] = [];
    class Latency extends Spider {
      static override name = 'latency';
      override async *start() {
        yield new Request(site.url('/page/5'), { callback: (response) => void latencies.push(response.meta['download_latency']) });
      }
    }
    await runCrawl(Latency);
    expect(latencies).toHaveLength(1);
    expect(latencies[0]).toBeGreaterThanOrEqual(LATENCY_MS / 1000);
    expect(latencies[0]).toBeLessThan(1);
  });
});
