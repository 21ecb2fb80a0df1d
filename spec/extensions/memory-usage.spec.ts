import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NotConfigured } from '../../src/contracts/control-flow.js';
import { MEMUSAGE_LOGGER, MemoryUsage, peakRssBytes } from '../../src/extensions/memory-usage.js';
import { SettingsError } from '../../src/settings/settings-error.js';
import { Spider, type Response } from '../../src/index.js';
import { fakeCrawler } from '../helpers/fake-crawler.js';
import { quotesSite, runCrawl, slow, startSite, type CrawlResult, type TestSite } from '../helpers/site-server.js';

const MIB = 1024 * 1024;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let site: TestSite;
beforeAll(async () => {
  site = await startSite({ ...quotesSite(2), '/slow/': slow(400) });
});
afterAll(async () => site.close());

function spiderFor(paths: string[]) {
  return class QuotesSpider extends Spider {
    static override name = 'quotes';
    override startUrls = paths.map((path) => site.url(path));

    override *parse(response: Response) {
      for (const quote of response.css('div.quote')) yield { text: quote.css('span.text::text').get() };
      const next = response.css('li.next a::attr(href)').get();
      if (next !== null) yield response.follow(next, this.parse);
    }
  };
}

const memusageLines = (result: CrawlResult): Array<[string, string]> =>
  result.logs.filter((l) => l.logger === MEMUSAGE_LOGGER).map((l) => [l.level, l.message]);

describe('MemoryUsage in a crawl', () => {
  it('memusage/max is the real peak of a short crawl, including a spike in a callback that was freed before the crawl ended', async () => {
    // The RSS measured inside the callback while the spike is alive is a floor for the crawl's real peak. (Comparing
    // with "RSS before the crawl + spike" was flaky in a jest worker: allocating 400 MiB can make V8 collect and
    // return older garbage, so the RSS grows by less than the spike.)
    let duringSpike = 0;
    class Spiky extends Spider {
      static override name = 'spiky';
      override startUrls = [site.url('/page/1/')];
      override parse() {
        // 400 MiB touched, then garbage: a spike between the start of the crawl and its end.
        const spike = Buffer.alloc(400 * MIB, 1);
        duringSpike = process.memoryUsage().rss;
        return { bytes: spike.length };
      }
    }
    const result = await runCrawl(Spiky);
    expect(result.items).toEqual([{ bytes: 400 * MIB }]);
    const max = result.stats['memusage/max'] as number;
    // The spike was seen though no scheduled check fell in it.
    expect(duringSpike).toBeGreaterThan(400 * MIB);
    expect(max).toBeGreaterThanOrEqual(duringSpike);
    expect(max).toBeLessThanOrEqual(process.resourceUsage().maxRSS * 1024 + 4096);
  });

  it('records memusage/startup and memusage/max in bytes, and nothing else, by default', async () => {
    const result = await runCrawl(spiderFor(['/page/1/']));
    expect(result.reason).toBe('finished');
    const startup = result.stats['memusage/startup'] as number;
    const max = result.stats['memusage/max'] as number;
    expect(Number.isInteger(startup)).toBe(true);
    expect(startup).toBeGreaterThan(10 * MIB); // a Node process's RSS is tens of MiB at least
    expect(max).toBeGreaterThanOrEqual(startup);
    expect(Object.keys(result.stats).filter((key) => key.startsWith('memusage/')).sort()).toEqual(['memusage/max', 'memusage/startup']);
    expect(memusageLines(result)).toEqual([]);
  });

  it('closes the spider with memusage_exceeded, one error line and memusage/limit_reached above MEMUSAGE_LIMIT_MB', async () => {
    const result = await runCrawl(spiderFor(['/slow/', '/page/1/']), { MEMUSAGE_LIMIT_MB: 1, MEMUSAGE_CHECK_INTERVAL_SECONDS: 0.05 });
    expect(result.reason).toBe('memusage_exceeded');
    expect(result.stats['memusage/limit_reached']).toBe(1);
    expect(result.stats).not.toHaveProperty('memusage/limit_notified'); // Scrapy sets it only after mailing, and seine sends no mail
    expect(memusageLines(result)).toEqual([['ERROR', 'Memory usage exceeded 1MiB. Shutting down seine...']]);
    expect(result.lines).toContain('Closing spider (memusage_exceeded)');
    expect(result.items).toEqual([]);
  });

  it('warns once above MEMUSAGE_WARNING_MB, however many checks follow, and finishes normally', async () => {
    const result = await runCrawl(spiderFor(['/slow/']), { MEMUSAGE_WARNING_MB: 1, MEMUSAGE_CHECK_INTERVAL_SECONDS: 0.05 });
    expect(result.reason).toBe('finished');
    expect(result.stats['memusage/warning_reached']).toBe(1);
    expect(result.stats).not.toHaveProperty('memusage/limit_reached');
    expect(memusageLines(result)).toEqual([['WARNING', 'Memory usage reached 1MiB']]);
  });

  it('records nothing when MEMUSAGE_ENABLED is false', async () => {
    const result = await runCrawl(spiderFor(['/page/1/']), { MEMUSAGE_ENABLED: false, MEMUSAGE_LIMIT_MB: 1 });
    expect(result.reason).toBe('finished');
    expect(Object.keys(result.stats).filter((key) => key.startsWith('memusage/'))).toEqual([]);
    expect(result.items).toHaveLength(4);
  });
});

describe('MemoryUsage checks', () => {
  it('logs the peak at INFO at each check below the limit, then closes once when it is exceeded', () => {
    const crawler = fakeCrawler({ MEMUSAGE_LIMIT_MB: 100 });
    const readings = [50 * MIB, 60 * MIB, 99.5 * MIB, 101 * MIB, 120 * MIB, 130 * MIB];
    let at = 0;
    const extension = MemoryUsage.fromCrawler(crawler, { measure: () => readings[Math.min(at++, readings.length - 1)]! });
    crawler.emit({ type: 'engine_started' }); // startup (50), then max (60) and the limit check (99.5)
    extension.check(); // max 101, limit 120: exceeded
    extension.check(); // max 130; the limit is not checked again
    extension.stop();
    expect(crawler.textLines(MEMUSAGE_LOGGER)).toEqual([
      `INFO [${MEMUSAGE_LOGGER}] Peak memory usage is 99MiB`,
      `ERROR [${MEMUSAGE_LOGGER}] Memory usage exceeded 100MiB. Shutting down seine...`,
    ]);
    expect(crawler.closed).toEqual(['memusage_exceeded']);
    expect(crawler.stats.getAll()).toEqual({ 'memusage/startup': 50 * MIB, 'memusage/max': 130 * MIB, 'memusage/limit_reached': 1 });
  });

  it('reads the peak on its own timer, not only every MEMUSAGE_CHECK_INTERVAL_SECONDS, and a last time at closeSpider', async () => {
    let measured = 0;
    const crawler = fakeCrawler({ MEMUSAGE_CHECK_INTERVAL_SECONDS: 60 });
    const extension = MemoryUsage.fromCrawler(crawler, { measure: () => ++measured * MIB, checkEveryMs: 20 });
    crawler.emit({ type: 'engine_started' });
    await sleep(150);
    const during = measured;
    expect(during).toBeGreaterThanOrEqual(4); // startup, the first check, and a check every 20 ms (not one per 60 s)
    extension.closeSpider();
    expect(crawler.stats.get('memusage/max')).toBe((during + 1) * MIB); // the closing read: the crawl's real peak
    await sleep(100);
    expect(measured).toBe(during + 1);
  });

  it('a spike between two reports is caught by the limit within a second, from the kernel\'s peak', async () => {
    const crawler = fakeCrawler({ MEMUSAGE_LIMIT_MB: 100, MEMUSAGE_CHECK_INTERVAL_SECONDS: 60 });
    let peak = 50 * MIB;
    MemoryUsage.fromCrawler(crawler, { measure: () => peak, checkEveryMs: 50 });
    crawler.emit({ type: 'engine_started' });
    peak = 150 * MIB; // a spike: the kernel's high-water mark keeps it after the memory is freed
    await sleep(200);
    expect(crawler.closed).toEqual(['memusage_exceeded']);
    expect(crawler.stats.get('memusage/max')).toBe(150 * MIB);
  });

  it('measures the peak resident set size in bytes', () => {
    // Both only grow (the RSS may shrink, never above the peak), so readings taken before bound it from below.
    const kernelPeak = process.resourceUsage().maxRSS * 1024;
    const rss = process.memoryUsage().rss;
    const peak = peakRssBytes();
    expect(peak).toBeGreaterThanOrEqual(kernelPeak);
    expect(peak).toBeGreaterThanOrEqual(rss);
    expect(Number.isInteger(peak)).toBe(true);
  });

  it('is off (NotConfigured) when MEMUSAGE_ENABLED is false', () => {
    expect(() => MemoryUsage.fromCrawler(fakeCrawler({ MEMUSAGE_ENABLED: false }))).toThrow(NotConfigured);
  });

  it.each([
    ['MEMUSAGE_LIMIT_MB', '-1', 'Setting MEMUSAGE_LIMIT_MB must be at least 0, got -1 (from -s MEMUSAGE_LIMIT_MB=-1): use 0 to turn it off'],
    ['MEMUSAGE_WARNING_MB', '-5', 'Setting MEMUSAGE_WARNING_MB must be at least 0, got -5 (from -s MEMUSAGE_WARNING_MB=-5): use 0 to turn it off'],
    [
      'MEMUSAGE_CHECK_INTERVAL_SECONDS',
      '0',
      'Setting MEMUSAGE_CHECK_INTERVAL_SECONDS must be greater than 0, got 0 (from -s MEMUSAGE_CHECK_INTERVAL_SECONDS=0): ' +
        'it is the number of seconds between two memory checks; set MEMUSAGE_ENABLED to false to turn them off',
    ],
  ])('refuses %s=%s with a SettingsError', (name, value, message) => {
    const build = (): MemoryUsage => MemoryUsage.fromCrawler(fakeCrawler({ [name]: value }));
    expect(build).toThrow(SettingsError);
    expect(build).toThrow(message);
  });
});
