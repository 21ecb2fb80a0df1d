import { describe, expect, it } from '@jest/globals';
import { parseGnuTime, parseStatsDump, type CrawlerMeasurement } from '../crawler-run.js';
import { medianRow, ratioLines, table, toRow, warnings, type CrawlerResult } from '../report.js';

function result(crawler: string, wallSeconds: number, cpuSeconds: number, rssMb: number, pages = 2000, items = 20000): CrawlerResult {
  const measurement: CrawlerMeasurement = { crawler, exitCode: 0, wallSeconds, cpuSeconds, peakRssBytes: rssMb * 1024 * 1024, source: 'rusage', feedItems: items, stats: {} };
  return { measurement, hits: { pages, distinctPages: pages, robots: 1, notFound: 0 } };
}

describe('the crawl benchmark report', () => {
  it('reads the numbers of a Scrapy-style stats dump', () => {
    const log = "INFO: Dumping seine stats:\n{'downloader/request_count': 2001,\n 'elapsed_time_seconds': 7.998,\n 'finish_reason': 'finished',\n 'item_scraped_count': 20000}\n";
    expect(parseStatsDump(log)).toEqual({ 'downloader/request_count': 2001, elapsed_time_seconds: 7.998, item_scraped_count: 20000 });
  });

  it('reads GNU time’s %e %U %S %M line', () => {
    expect(parseGnuTime('8.73 6.97 0.61 216212\n')).toEqual({ cpuSeconds: 7.58, peakRssBytes: 216212 * 1024 });
    expect(parseGnuTime('Command exited with non-zero status 1\n')).toBeNull();
  });

  it('prints pages/s, CPU ms per page and peak RSS per crawler', () => {
    expect(table([toRow(result('seine', 8, 7.6, 216)), toRow(result('Scrapy', 40, 25, 87.5))])).toBe(
      [
        'crawler  pages   items  seconds  pages/s  CPU ms/page  peak RSS MB',
        '-------  -----  ------  -------  -------  -----------  -----------',
        'seine    2,000  20,000     8.00    250.0         3.80        216.0',
        'Scrapy   2,000  20,000    40.00     50.0        12.50         87.5',
      ].join('\n'),
    );
  });

  it('judges the targets: ≥ 6× Scrapy’s pages/s, ≤ 0.16× its CPU per page, peak RSS ≤ 100 MB', () => {
    expect(ratioLines(toRow(result('seine', 8, 7.6, 216)), toRow(result('Scrapy', 40, 25, 87.5)))).toEqual([
      'seine/Scrapy pages/s:      5.00×   target ≥ 6×       BELOW',
      'seine/Scrapy CPU ms/page:  0.30×   target ≤ 0.16×    BELOW',
      'seine/Scrapy peak RSS:     2.47×   (for the record)',
      'seine peak RSS:            216.0 MB   target ≤ 100 MB   BELOW',
    ]);
    expect(ratioLines(toRow(result('seine', 20, 7.6, 100)), null)).toEqual([
      'seine/Scrapy pages/s:      not measured (Scrapy was not run)   target ≥ 6×',
      'seine peak RSS:            100.0 MB   target ≤ 100 MB   PASS',
    ]);
  });

  it('passes a crawl that is ≥ 6× as fast at ≤ 0.16× the CPU and ≤ 100 MB', () => {
    expect(ratioLines(toRow(result('seine', 6, 3, 99.5)), toRow(result('Scrapy', 40, 25, 87.5)))).toEqual([
      'seine/Scrapy pages/s:      6.67×   target ≥ 6×       PASS',
      'seine/Scrapy CPU ms/page:  0.12×   target ≤ 0.16×    PASS',
      'seine/Scrapy peak RSS:     1.14×   (for the record)',
      'seine peak RSS:            99.5 MB   target ≤ 100 MB   PASS',
    ]);
  });

  it('adds seine’s ratios to Crawlee when Crawlee ran, with Scrapy or without', () => {
    const seine = toRow(result('seine', 8, 7.6, 216));
    const crawlee = toRow(result('Crawlee', 20, 23, 300));
    expect(ratioLines(seine, toRow(result('Scrapy', 40, 25, 87.5)), crawlee)).toEqual([
      'seine/Scrapy pages/s:      5.00×   target ≥ 6×       BELOW',
      'seine/Scrapy CPU ms/page:  0.30×   target ≤ 0.16×    BELOW',
      'seine/Scrapy peak RSS:     2.47×   (for the record)',
      'seine/Crawlee pages/s:     2.50×   (for the record)',
      'seine/Crawlee CPU ms/page: 0.33×   (for the record)',
      'seine/Crawlee peak RSS:    0.72×   (for the record)',
      'seine peak RSS:            216.0 MB   target ≤ 100 MB   BELOW',
    ]);
    expect(ratioLines(seine, null, crawlee)).toEqual([
      'seine/Scrapy pages/s:      not measured (Scrapy was not run)   target ≥ 6×',
      'seine/Crawlee pages/s:     2.50×   (for the record)',
      'seine/Crawlee CPU ms/page: 0.33×   (for the record)',
      'seine/Crawlee peak RSS:    0.72×   (for the record)',
      'seine peak RSS:            216.0 MB   target ≤ 100 MB   BELOW',
    ]);
  });

  it('judges several rounds by each column’s median', () => {
    const rounds = [toRow(result('seine', 8, 7.6, 100)), toRow(result('seine', 4, 3, 96)), toRow(result('seine', 5, 5, 120))];
    expect(medianRow(rounds)).toEqual({ crawler: 'seine', pages: 2000, items: 20000, seconds: 5, pagesPerSecond: 400, cpuMsPerPage: 2.5, peakRssMb: 100 });
    expect(medianRow(rounds.slice(0, 2)).seconds).toBe(6);
  });

  it('prints a row per crawler, Crawlee’s included', () => {
    expect(table([toRow(result('seine', 8, 7.6, 216)), toRow(result('Scrapy', 40, 25, 87.5)), toRow(result('Crawlee', 20, 23, 300.25))]).split('\n').at(-1)).toBe(
      'Crawlee  2,000  20,000    20.00    100.0        11.50        300.3',
    );
  });

  it('warns when the crawlers did not crawl and scrape the same', () => {
    expect(warnings([result('seine', 8, 7, 200), result('Scrapy', 40, 25, 90)], 2000, 10)).toEqual([]);
    expect(warnings([result('seine', 8, 7, 200, 1990, 19900), result('Scrapy', 40, 25, 90)], 2000, 10)).toEqual([
      "WARNING: seine crawled 1990 of the site's 2000 pages",
      'WARNING: seine and Scrapy crawled different numbers of pages (1990 vs 2000)',
      'WARNING: seine and Scrapy scraped different numbers of items (19900 vs 20000)',
    ]);
  });

  it('checks Crawlee against the same site and against seine, robots.txt included', () => {
    const crawlee = result('Crawlee', 20, 23, 300, 2010, 20000);
    crawlee.hits = { pages: 2010, distinctPages: 2000, robots: 0, notFound: 0 };
    expect(warnings([result('seine', 8, 7, 200), result('Scrapy', 40, 25, 90), crawlee], 2000, 10)).toEqual([
      'WARNING: Crawlee fetched 10 page(s) more than once (2010 fetches for 2000 pages)',
      'WARNING: Crawlee never requested /robots.txt, which the settings say to obey',
      'WARNING: seine and Crawlee crawled different numbers of pages (2000 vs 2010)',
    ]);
    expect(warnings([result('seine', 8, 7, 200), result('Crawlee', 20, 23, 300, 2000, 19990)], 2000, 10)).toEqual([
      'WARNING: Crawlee wrote 19990 items to its feed; 2000 pages hold 20000',
      'WARNING: seine and Crawlee scraped different numbers of items (20000 vs 19990)',
    ]);
  });
});
