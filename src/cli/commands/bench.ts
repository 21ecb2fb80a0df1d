import { BenchSpider, startBenchServer } from '../../bench-site/index.js';
import { defineCommand } from '../command.js';
import { runCrawl } from '../run-crawl.js';

/**
 * Scrapy's `bench` defaults: progress every second, and a ten-second run.
 * `-s` overrides any of them (e.g. `-s CLOSESPIDER_TIMEOUT=3`).
 */
const BENCH_SETTINGS = { LOG_LEVEL: 'INFO', LOGSTATS_INTERVAL: 1, CLOSESPIDER_TIMEOUT: 10 } as const;

/**
 * How many distinct pages the bench site offers (Scrapy passes the same). A
 * ten-second run reaches under a tenth of them; a much longer one (a large
 * CLOSESPIDER_TIMEOUT) sees ever more duplicates and ends `finished` once all
 * are crawled.
 */
const BENCH_TOTAL = 100000;

/**
 * `seine bench`: serves a site whose every page links to 20 others on a free loopback
 * port and crawls it with a spider that follows every link, until
 * CLOSESPIDER_TIMEOUT. The LogStats lines are the result: pages per minute
 * on this machine, with no network and no site in the way.
 */
export const benchCommand = defineCommand<object>({
  name: 'bench',
  description: 'Run quick benchmark test',
  defaultSettings: BENCH_SETTINGS,
  builder: (parser) => parser as never,
  async handler({ settings, logBus }) {
    const server = await startBenchServer();
    try {
      // The command's defaults reach the crawl at 'project' priority, under -s (at 'cmdline'). A
      // project's own settings are left out on purpose: the number should describe seine on this
      // machine, the same inside a project as outside.
      await runCrawl({
        spiderClass: BenchSpider, args: { a: [`baseurl=${server.url}`, `total=${BENCH_TOTAL}`] }, feeds: [], settings, projectSettings: { ...BENCH_SETTINGS }, logBus,
      });
    } finally {
      await server.close();
    }
    return 0;
  },
});
