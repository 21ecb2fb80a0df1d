import { startDemoSite, DemoQuotesSpider, type DemoSite } from '../../demo/index.js';
import { defineCommand } from '../command.js';
import { parseFeedOption } from '../feed-option.js';
import { parseFeedOptions, runCrawl, withCrawlOptions } from '../run-crawl.js';
import { UsageError } from '../usage-error.js';
import { untilInterrupted } from '../until-interrupted.js';

/** Where the demo's items go when neither -o nor -O is given. */
export const DEFAULT_DEMO_FEED = 'quotes-demo.jsonl';

/**
 * What a new project's settings.ts sets that changes this crawl's output:
 * robots.txt obeyed (the log shows its 404, as the tutorial's crawl does) and
 * UTF-8 feeds (curly quotes as they are, not \u201c). Not its one-second
 * DOWNLOAD_DELAY: the demo should finish at once.
 */
const DEMO_PROJECT_SETTINGS = { ROBOTSTXT_OBEY: true, FEED_EXPORT_ENCODING: 'utf-8' };

interface DemoArgs {
  serve?: boolean;
  port?: string;
  o?: string[];
  O?: string[];
}

/** `--port`: read as text so that a wrong value is quoted as typed (yargs would turn 'abc' into NaN). */
function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, got '${value}'`, { command: 'demo' });
  }
  return Number(value);
}

/**
 * `seine demo`: the embedded default. Starts the bundled quotes site on a
 * free loopback port, crawls it with the tutorial's quotes spider, writes the
 * items (quotes-demo.jsonl unless -o/-O say otherwise) and says where.
 * `seine demo --serve` only serves the site, for the tutorial, until Ctrl-C.
 */
export const demoCommand = defineCommand<DemoArgs>({
  name: 'demo',
  description: 'Crawl a bundled demo site with the tutorial spider',
  builder: (parser) =>
    withCrawlOptions(parser
      .option('serve', { type: 'boolean', describe: 'only serve the demo site (until Ctrl-C) and print its URL' })
      .option('port', { type: 'string', requiresArg: true, describe: 'serve the site on this port of 127.0.0.1 (default: a free one)' }), { spiderArgs: false, overwriteDefault: DEFAULT_DEMO_FEED }) as never,
  async handler({ args, settings, logBus, logger, stdout, stderr }) {
    const port = parsePort(args.port);
    const given = parseFeedOptions(args);
    if (args.serve === true) {
      if (given.length > 0) throw new UsageError('-o/-O name where the demo crawl writes its items; --serve only serves the site', { command: 'demo' });
      const site = await startDemoSite({ port });
      stdout.write(`Serving the demo quotes site at ${site.url} (press Ctrl-C to stop)\n`);
      await untilInterrupted();
      await site.close();
      return 0;
    }
    const feeds = given.length > 0 ? given : [parseFeedOption(DEFAULT_DEMO_FEED, true)];
    const site: DemoSite = await startDemoSite({ port });
    try {
      logger.info(`Demo site listening on ${site.url}`);
      const crawler = await runCrawl({
        spiderClass: DemoQuotesSpider, args: { a: [`site=${site.url}`] }, feeds, settings, projectSettings: DEMO_PROJECT_SETTINGS, logBus,
      });
      const count = Number(crawler.stats.get('item_scraped_count') ?? 0);
      const where = feeds.map((feed) => (feed.path === '-' ? 'standard output' : feed.path)).join(' and ');
      // Items on standard output (-o -) must stay a clean feed: the summary goes to stderr then.
      const out = feeds.some((feed) => feed.path === '-') ? stderr : stdout;
      out.write(`Scraped ${count} item${count === 1 ? '' : 's'} from the demo site into ${where}\n`);
    } finally {
      await site.close();
    }
    return 0;
  },
});
