/**
 * The live dashboard of one crawl (`seine crawl <spider> --dashboard [PORT]`,
 * or DASHBOARD_ENABLED): an HTTP server on loopback, opened with the spider
 * and closed with it, so the command still exits when its crawl ends. The
 * page shows the crawl as it runs and can pause, resume and stop it.
 */
import { writeFileSync } from 'node:fs';
import type { Extension } from '../contracts/components.js';
import type { Crawler } from '../contracts/crawler.js';
import { NotConfigured } from '../contracts/control-flow.js';
import type { Logger } from '../log/index.js';
import { isLoopbackHost } from '../extensions/telnet/listen.js';
import { CrawlWatch } from './crawl-watch.js';
import { DashboardServer } from './dashboard-server.js';
import { DashboardBindError, DashboardListenError } from './errors.js';
import type { BasicAuth } from './http-guard.js';

export const DASHBOARD_LOGGER = 'seine.dashboard';

/** What the dashboard needs of the crawler beyond the contract: CrawlerImpl's `cancel`, a second Ctrl-C. */
type Cancellable = Crawler & { cancel?(reason?: string): void };

export interface DashboardOptions {
  readonly port: number;
  readonly bind: string;
  readonly auth: BasicAuth | null;
  /** Where to write the bound port (`seine serve` reads it to link a job's live page). */
  readonly portFile: string | null;
}

export class Dashboard implements Extension {
  readonly #crawler: Cancellable;
  readonly #options: DashboardOptions;
  readonly #logger: Logger;
  #watch: CrawlWatch | undefined;
  #server: DashboardServer | undefined;
  /** The port the server listens on, once it does. */
  port: number | undefined;

  constructor(crawler: Crawler, options: DashboardOptions) {
    if (!isLoopbackHost(options.bind) && options.auth === null) throw new DashboardBindError(options.bind);
    if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
      throw new DashboardListenError(`DASHBOARD_PORT is ${options.port}, which is not a port number: use 0-65535 (0 takes any free port)`);
    }
    this.#crawler = crawler;
    this.#options = options;
    this.#logger = crawler.logBus.getLogger(DASHBOARD_LOGGER);
  }

  /** NotConfigured unless DASHBOARD_ENABLED. */
  static fromCrawler(crawler: Crawler): Dashboard {
    const settings = crawler.settings;
    if (!settings.getBool('DASHBOARD_ENABLED')) throw new NotConfigured('DASHBOARD_ENABLED is false');
    const username = settings.get('DASHBOARD_USERNAME');
    const password = settings.get('DASHBOARD_PASSWORD');
    const auth = username !== null && username !== '' && password !== null && password !== '' ? { username, password } : null;
    return new Dashboard(crawler, {
      port: settings.getInt('DASHBOARD_PORT'),
      bind: settings.get('DASHBOARD_BIND'),
      auth,
      portFile: settings.get('DASHBOARD_PORT_FILE'),
    });
  }

  async openSpider(): Promise<void> {
    const crawler = this.#crawler;
    const watch = (this.#watch = new CrawlWatch(crawler));
    let stops = 0;
    this.#server = new DashboardServer({
      snapshot: () => watch.snapshot(),
      auth: this.#options.auth,
      onTick: () => watch.tick(),
      controls: {
        pause: () => {
          if (watch.state !== 'running') return;
          crawler.pause();
          watch.state = 'paused';
          this.#logger.info('Paused from the dashboard');
        },
        resume: () => {
          if (watch.state !== 'paused') return;
          crawler.resume();
          watch.state = 'running';
          this.#logger.info('Resumed from the dashboard');
        },
        stop: () => {
          stops++;
          // A paused crawl could not finish what it has in flight, so a stop opens the gate first.
          if (watch.state === 'paused') crawler.resume();
          if (watch.state !== 'finished') watch.state = 'closing';
          if (stops === 1) {
            this.#logger.info('Stop from the dashboard, shutting down gracefully. Stop again to cancel');
            crawler.close('shutdown');
            return 'closing';
          }
          this.#logger.info('Stop from the dashboard twice, cancelling the crawl');
          crawler.cancel?.('shutdown');
          return 'cancelled';
        },
      },
    });
    const address = await this.#server.listen(this.#options.port, this.#options.bind);
    this.port = address.port;
    watch.tick();
    if (this.#options.portFile !== null && this.#options.portFile !== '') writeFileSync(this.#options.portFile, `${address.port}\n`);
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.#logger.info(`Dashboard at http://${host}:${address.port}/`);
  }

  async closeSpider(_spider: unknown, reason: string): Promise<void> {
    const watch = this.#watch;
    if (watch !== undefined) {
      watch.state = 'finished';
      watch.finishReason = reason;
      watch.tick();
    }
    await this.#server?.close();
    watch?.stop();
  }
}
