/**
 * `await inspectResponse(response, this)` in a callback: opens the shell's
 * console on that response in the middle of a crawl, as Scrapy's
 * inspect_response. While it is open the engine's gate is closed (nothing
 * is scheduled, downloaded or handed to a callback; responses already on
 * their way wait) and the crawl's log is held, so no line lands in what
 * the user types; on leaving, both flow again and the crawl goes on where it
 * stopped. Consoles opened by several callbacks at once come one after the
 * other, and the engine stays paused until the last one closes.
 */
import type { Crawler } from '../contracts/crawler.js';
import type { Response } from '../http/response.js';
import { findProject } from '../project/find-project.js';
import type { Spider } from '../contracts/spider.js';
import { chooseConsole } from './console/choose-console.js';
import { historyFileFor, runConsole } from './console/start-console.js';
import { InspectResponseError } from './shell-errors.js';
import { ShellSession, loadSeineModule } from './shell-session.js';

/** What inspectResponse needs of the crawler beyond the Crawler interface (CrawlerImpl has it). */
interface PausableCrawler extends Crawler {
  pause(): void;
  resume(): void;
}

function isPausable(crawler: Crawler): crawler is PausableCrawler {
  const c = crawler as Partial<PausableCrawler>;
  return typeof c.pause === 'function' && typeof c.resume === 'function';
}

export interface InspectOptions {
  readonly input?: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly output?: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
}

let queue: Promise<void> = Promise.resolve();
const openCount = new WeakMap<Crawler, number>();

export async function inspectResponse(response: Response, spider: Spider, options: InspectOptions = {}): Promise<void> {
  const crawler = spider?.crawler;
  if (crawler === undefined || !isPausable(crawler)) {
    throw new InspectResponseError('inspectResponse(response, spider) needs the spider of a running crawl: call it in a callback as `await inspectResponse(response, this)`');
  }
  // Paused from the moment it is asked for, also while waiting for another console to close.
  openCount.set(crawler, (openCount.get(crawler) ?? 0) + 1);
  crawler.pause();
  const release = crawler.logBus.hold();
  const turn = queue.then(() => openConsole(response, spider, crawler, options));
  queue = turn.catch(() => undefined);
  try {
    await turn;
  } finally {
    release();
    const left = (openCount.get(crawler) ?? 1) - 1;
    openCount.set(crawler, left);
    if (left === 0) crawler.resume();
  }
}

async function openConsole(response: Response, spider: Spider, crawler: Crawler, options: InspectOptions): Promise<void> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const output = options.output ?? process.stdout;
  const session = new ShellSession({ crawler, spider, cwd, env, write: (text) => output.write(text), seine: await loadSeineModule() });
  session.populate(response.request, response);
  const kind = chooseConsole({ env: env['SEINE_SHELL'], config: findProject(cwd)?.sections['settings']?.['shell'] });
  await runConsole({
    kind,
    vars: session.vars,
    banner: session.help(),
    input: options.input,
    output,
    pipedBannerOutput: process.stderr,
    historyFile: historyFileFor(kind, env),
  });
}
