/**
 * What `seine crawl` and `seine runspider` share once they have a spider
 * class: feeds from -o/-O (parseFeedOptions), spider arguments from -a, the command line's
 * settings, the crawl itself, and the SIGINT/SIGTERM handling (first:
 * graceful shutdown, in-flight requests finish and feeds are closed;
 * second: forced). While a callback blocks the event loop these handlers
 * cannot run: the Watchdog extension's worker sees the signals too and
 * forces the second one itself (see FORCES_ON_SECOND_SIGNAL).
 */
import type { Argv } from 'yargs';
import { CrawlerImpl } from '../crawler/crawler-impl.js';
import { priorityValue } from '../settings/index.js';
import type { Settings } from '../settings/settings.js';
import type { SpiderClass } from '../contracts/spider.js';
import type { LogBus } from '../log/log-bus.js';
import type { FeedSpec } from '../feeds/index.js';
import { parseFeedOption } from './feed-option.js';
import { SpiderArgumentError } from '../contracts/spider-errors.js';
import { FORCES_ON_SECOND_SIGNAL, forceExit } from '../extensions/watchdog.js';
import { MONITORS_FAILED_STAT } from '../monitors/index.js';
import { WORKER_SETTINGS, workerLink, workerNumber } from '../workers/worker-runtime.js';

export interface CrawlOptionArgs {
  a?: string[];
  o?: string[];
  O?: string[];
}

export interface RunCrawlOptions {
  readonly spiderClass: SpiderClass;
  readonly args: CrawlOptionArgs;
  /** From parseFeedOptions. */
  readonly feeds: FeedSpec[];
  /** The CLI's settings: those at 'cmdline' priority (-s, --loglevel, …) go to the crawl. */
  readonly settings: Settings;
  /** A project's settings.ts, at 'project' priority. */
  readonly projectSettings?: Record<string, unknown>;
  /** The spider's customSettings resolved against the project (class names in component lists). */
  readonly customSettings?: Record<string, unknown>;
  readonly logBus: LogBus;
  /** Where the spider class came from, named in warnings about it (crawler option spiderFile). */
  readonly spiderFile?: string;
  /** Called with the crawl's settings once the spider's customSettings are in (the CLI's log sink follows them). */
  readonly reconfigureLog?: (settings: Settings) => void;
}

/** The options crawl, runspider and demo share: -a (when the command takes spider arguments), -o, -O. */
export function withCrawlOptions<T>(parser: Argv<T>, options: { spiderArgs: boolean; overwriteDefault?: string } = { spiderArgs: true }): Argv<T> {
  const withArgs = options.spiderArgs
    ? parser.option('a', { type: 'string', array: true, requiresArg: true, describe: 'set a spider argument (may be repeated)', nargs: 1 })
    : parser;
  const overwrite = 'dump scraped items into FILE, overwriting it' + (options.overwriteDefault === undefined ? '' : ` (default: ${options.overwriteDefault})`);
  return withArgs
    .option('o', { type: 'string', array: true, requiresArg: true, describe: 'append scraped items to the end of FILE (use - for stdout)', nargs: 1 })
    .option('O', { type: 'string', array: true, requiresArg: true, describe: overwrite, nargs: 1 }) as unknown as Argv<T>;
}

/** `-a NAME=VALUE` values as spider arguments (strings). */
export function parseSpiderArgs(values: readonly string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new SpiderArgumentError(value, `Invalid -a value '${value}': write it as -a NAME=VALUE, e.g. -a tag=humor`);
    args[value.slice(0, eq)] = value.slice(eq + 1);
  }
  return args;
}

/**
 * -o/-O as feeds. Their formats are checked when the crawl starts, against the crawl's
 * FEED_EXPORTERS (the project's and the spider's too): a bad one fails with one line, nothing crawled.
 */
export function parseFeedOptions(args: CrawlOptionArgs): FeedSpec[] {
  return [...(args.o ?? []).map((value) => parseFeedOption(value, false)), ...(args.O ?? []).map((value) => parseFeedOption(value, true))];
}

/**
 * The CLI's settings a crawl takes at its own 'cmdline' priority (-s, --loglevel, …): the
 * crawler layers them over the project's settings and the spider's customSettings.
 */
export function cmdlineSettings(settings: Settings): Record<string, unknown> {
  const cmdline: Record<string, unknown> = {};
  for (const name of settings.names()) {
    if ((settings.getPriority(name) ?? 0) >= priorityValue('cmdline')) cmdline[name] = settings.getRaw(name);
  }
  return cmdline;
}

/**
 * The exit status of a crawl that ran to its end: 1 when a feed lost items
 * (a write failed mid-crawl, or it could not be stored at close: each one
 * ERROR line, counted in `feedexport/failed_count/<storage>`); else 3 when a
 * monitor failed at close (`monitors/failed`, docs/monitors.md); else 0. The
 * data is what a crawl is for, so a script running it must see this; a
 * `-o - | head` whose reader left is not a failure.
 */
export function crawlExitStatus(crawler: Pick<CrawlerImpl, 'stats'>): number {
  const stats = crawler.stats.getAll();
  if (Object.keys(stats).some((key) => key.startsWith('feedexport/failed_count/') && Number(stats[key]) > 0)) return 1;
  // --workers N: a worker that died left the crawl short (its requests went to the others, or, with none left, the crawl stopped).
  if (Number(stats['workers/failed'] ?? 0) > 0) return 1;
  return Number(stats[MONITORS_FAILED_STAT] ?? 0) > 0 ? MONITORS_FAILED_EXIT_STATUS : 0;
}

/** `seine crawl`'s status when a monitor failed: apart from 1 (an error) and 2 (a usage error). */
export const MONITORS_FAILED_EXIT_STATUS = 3;

/** Runs the crawl to its end and returns its crawler (its stats, its finish reason). */
export async function runCrawl({ spiderClass, args, feeds, settings, projectSettings, customSettings, logBus, reconfigureLog, spiderFile }: RunCrawlOptions): Promise<CrawlerImpl> {
  const spiderArgs = parseSpiderArgs(args.a ?? []);
  // A worker of `--workers N` (src/workers/): the coordinator that started it writes the feeds, keeps JOBDIR, dumps the stats,
  // and hears Ctrl-C (which the terminal sends to every process of the group): it tells the worker when to stop.
  const worker = workerNumber() !== null;
  const crawlSettings = worker ? { ...cmdlineSettings(settings), ...WORKER_SETTINGS } : cmdlineSettings(settings);
  const crawler = new CrawlerImpl(spiderClass, { args: spiderArgs, settings: crawlSettings, projectSettings, customSettings, feeds: worker ? [] : feeds, ...(spiderFile === undefined ? {} : { spiderFile }) }, logBus);
  reconfigureLog?.(crawler.settings);
  if (worker) {
    // A coordinator killed (kill -9, a second Ctrl-C) ends its workers at once, even before their crawl opened.
    workerLink().onGone(() => process.exit(1));
    const ignore = (): void => undefined;
    process.on('SIGINT', ignore);
    process.on('SIGTERM', ignore);
    await crawler.run();
    return crawler;
  }
  let signals = 0;
  const onSignal = Object.assign((signal: NodeJS.Signals): void => {
    signals++;
    const log = logBus.getLogger('seine.crawler');
    if (signals === 1) {
      log.info(`Received ${signal}, shutting down gracefully. Send again to force`);
      crawler.close('shutdown');
    } else {
      log.info(`Received ${signal} twice, forcing unclean shutdown`);
      crawler.cancel('shutdown');
      // forceExit: process.exit(1) without Node's `Waiting for the debugger to disconnect...` (the watchdog's inspector session)
      forceExit(1);
    }
  }, { [FORCES_ON_SECOND_SIGNAL]: true });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await crawler.run();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return crawler;
}
