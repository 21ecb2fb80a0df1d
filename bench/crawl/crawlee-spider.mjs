/**
 * The crawler Crawlee runs in the crawl benchmark: a CheerioCrawler, the twin
 * of seine-spider.ts and scrapy_spider.py (the same start page, the same four
 * CSS queries per entry, every `a[href]` of every page followed; the request
 * queue drops all but the first request for each page).
 *
 *   node bench/crawl/crawlee-spider.mjs --site http://127.0.0.1:<port> --output items.jsonl [--pages N]
 *
 * Crawlee 3.18 is loaded from bench/crawl/.peers/crawlee/ (install-crawlee.sh
 * puts it there; it is not a dependency of seine). The settings are the other
 * crawlers' (bench/crawl/run.ts, BENCH_SETTINGS) in Crawlee's terms:
 *
 *   CONCURRENT_REQUESTS=16     minConcurrency = maxConcurrency = 16 (the
 *                              autoscaled pool runs 16 tasks, never fewer)
 *   DOWNLOAD_DELAY=0           sameDomainDelaySecs 0, no maxRequestsPerMinute
 *   ROBOTSTXT_OBEY=true        respectRobotsTxtFile: true
 *   LOG_LEVEL=INFO             log level INFO
 *   -O items.jsonl             one JSON line per item, written as it is scraped
 *                              (Crawlee's Dataset exports JSON or CSV only)
 *
 * and what Crawlee does that the others do not is turned off where its
 * options allow: storage stays in memory (persistStorage: false, so the
 * request queue is not one JSON file per request on disk), no session pool
 * (so no cookie jar per session either), no statistics persisted to a
 * key-value store, no error snapshots. Left as they are: the system-info
 * polling that feeds the autoscaler (a `ps` every second or two; it cannot
 * change a concurrency pinned at 16, and costs well under 0.1 ms per page)
 * and the browser-like headers got-scraping generates (turning them off
 * made no measurable difference). `--pages` is only reported.
 */

import { createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { site: { type: 'string' }, output: { type: 'string' }, pages: { type: 'string' } } });
if (values.site === undefined || values.output === undefined) {
  console.error('usage: node bench/crawl/crawlee-spider.mjs --site http://127.0.0.1:<port> --output items.jsonl [--pages N]');
  process.exit(2);
}

// Crawlee lives in its own folder, outside seine's node_modules: load it from there. CheerioCrawler
// comes from its own package, @crawlee/cheerio, as a user who needs no browser crawler would import it:
// the `crawlee` package loads all of Crawlee's crawlers (jsdom, linkedom, the browser pool …), +0.5 s
// of start-up and ~75 MB of peak RSS on this benchmark. (Crawlee's packages are CommonJS; their ESM
// entries only re-export them, so require() loads the same modules as import.)
const { CheerioCrawler, Configuration, log } = createRequire(new URL('./.peers/crawlee/package.json', import.meta.url))('@crawlee/cheerio');

log.setLevel(log.LEVELS.INFO);
const config = new Configuration({ persistStorage: false, purgeOnStart: true });
const feed = createWriteStream(values.output);
let items = 0;

const crawler = new CheerioCrawler(
  {
    minConcurrency: 16,
    maxConcurrency: 16,
    sameDomainDelaySecs: 0,
    respectRobotsTxtFile: true,
    useSessionPool: false,
    persistCookiesPerSession: false,
    statisticsOptions: { persistenceOptions: { enable: false }, saveErrorSnapshots: false },
    async requestHandler({ $, enqueueLinks }) {
      $('div.entry').each((_, element) => {
        const entry = $(element);
        const item = {
          title: entry.find('h2.entry-title a').first().text(),
          author: entry.find('a.author').first().text(),
          price: entry.find('span.price').first().text(),
          tags: entry.find('div.tags a.tag').map((_, tag) => $(tag).text()).get(),
        };
        feed.write(JSON.stringify(item) + '\n');
        items++;
      });
      // Every link, as the other spiders follow every a::attr(href) (the site has no links off it).
      await enqueueLinks({ selector: 'a[href]', strategy: 'all' });
    },
  },
  config,
);

const stats = await crawler.run([`${values.site}/page/1/`]);
await new Promise((resolve, reject) => feed.end((error) => (error ? reject(error) : resolve())));
log.info(`crawlee-spider: ${stats.requestsFinished} requests finished, ${stats.requestsFailed} failed${values.pages === undefined ? '' : ` (the site has ${values.pages} pages)`}, ${items} items written to ${values.output}`);
process.exitCode = stats.requestsFailed > 0 ? 1 : 0;
