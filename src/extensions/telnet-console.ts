/**
 * Scrapy's TelnetConsole: a TCP console into the running crawl, on loopback
 * only. `telnet 127.0.0.1 6023` (or `nc`) asks for the username and the
 * password, then gives a JavaScript REPL holding `crawler`, `engine`,
 * `spider`, `settings`, `stats`, `est()` (the engine status report), `p()`
 * and `prefs()`. Without TELNETCONSOLE_PASSWORD a random password is made
 * and logged (`Telnet Password: …`), as Scrapy does.
 *
 * Listens from `openSpider` (or an explicit `start()`) and stops on
 * `closeSpider`, dropping open connections so that a crawl can end.
 */
import { randomBytes, createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { Extension } from '../contracts/components.js';
import type { Crawler } from '../contracts/crawler.js';
import { NotConfigured } from '../contracts/control-flow.js';
import { getLogger, type Logger } from '../log/index.js';
import { CONSOLE_BANNER, consoleHelpers } from './telnet/console-vars.js';
import type { EngineStatusRow, LiveRefCount } from './telnet/engine-status.js';
import { assertLoopbackHost, listenOnRange, portsToTry } from './telnet/listen.js';
import { TelnetSession } from './telnet/session.js';
import { settingAtLeast } from '../settings/setting-at-least.js';

export { TelnetHostError, TelnetPortError } from './telnet/errors.js';
export type { EngineStatusRow, EngineStatusValue, LiveRefCount } from './telnet/engine-status.js';

export const TELNET_LOGGER = 'seine.extensions.telnet';

export interface TelnetConsoleOptions {
  /** A loopback address (default '127.0.0.1'); anything else throws a TelnetHostError. */
  readonly host?: string;
  /** `[first, last]`, `[port]`, or `[0]` for any free port (default [6023, 6073]). */
  readonly portRange?: readonly number[];
  /** Default 'seine'. */
  readonly username?: string;
  /** Default (also for '' and null): 16 random hex digits, logged at INFO. */
  readonly password?: string | null;
  /** The names the console holds, read at each login (Scrapy's telnet vars). */
  readonly context?: () => Record<string, unknown>;
  /** The rows `est()` prints. */
  readonly engineStatus?: () => readonly EngineStatusRow[];
  /** What `prefs()` prints; without it, prefs() says nothing is tracked. */
  readonly liveRefs?: () => readonly LiveRefCount[];
  /** Default: `seine.extensions.telnet` on the process-wide log bus. */
  readonly logger?: Logger;
  /** TELNETCONSOLE_LOGIN_ATTEMPTS: logins a connection may try before it is dropped (default 3). */
  readonly loginAttempts?: number;
  /** TELNETCONSOLE_LOGIN_TIMEOUT: seconds a connection may stay without logging in (default 30; 0: no limit). */
  readonly loginTimeout?: number;
  /**
   * The wait, in ms, before the login checked after a first failure; it
   * doubles with each further failure up to `maxLoginDelay` (default 250).
   */
  readonly loginDelay?: number;
  /** The longest wait between two login checks after failures, in ms (default 5000). */
  readonly maxLoginDelay?: number;
}

/** The delay before the login checked after `failures` consecutive failures, console-wide. */
export function loginDelayAfter(failures: number, base: number, max: number): number {
  if (failures <= 0) return 0;
  return Math.min(max, base * 2 ** Math.min(failures - 1, 30));
}

/** What the engine lets the console see of itself (the Crawler interface has no engine). */
export interface TelnetEngineAccess {
  /** The console's `engine`: the running engine's state. */
  readonly engine: object;
  engineStatus(): readonly EngineStatusRow[];
  liveRefs?(): readonly LiveRefCount[];
  /** More names for the console (Scrapy's `update_telnet_vars` signal), e.g. `extensions`. */
  vars?(): Record<string, unknown>;
}

export interface TelnetAddress {
  readonly host: string;
  readonly port: number;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

export class TelnetConsole implements Extension {
  readonly host: string;
  readonly portRange: readonly number[];
  readonly username: string;
  readonly password: string;
  readonly #context: () => Record<string, unknown>;
  readonly #engineStatus: () => readonly EngineStatusRow[];
  readonly #liveRefs: (() => readonly LiveRefCount[]) | undefined;
  readonly #logger: Logger;
  readonly #sessions = new Set<TelnetSession>();
  #server: Server | undefined;
  #started: Promise<TelnetAddress> | undefined;
  readonly loginAttempts: number;
  readonly loginTimeout: number;
  readonly #loginDelay: number;
  readonly #maxLoginDelay: number;
  // Console-wide, not per connection: a new connection does not start the count again.
  #failedLogins = 0;
  #nextCheckAt = 0;
  #waitingChecks = 0;
  #checks: Promise<unknown> = Promise.resolve();
  #timeoutsLogged = 0;

  constructor(options: TelnetConsoleOptions = {}) {
    this.host = options.host ?? '127.0.0.1';
    this.portRange = [...(options.portRange ?? [6023, 6073])];
    // Both checked now, so a bad setting stops the crawl before it starts rather than at listen time.
    assertLoopbackHost(this.host);
    portsToTry(this.portRange);
    this.username = options.username ?? 'seine';
    this.#logger = options.logger ?? getLogger(TELNET_LOGGER);
    this.#context = options.context ?? (() => ({}));
    this.#engineStatus = options.engineStatus ?? (() => []);
    this.#liveRefs = options.liveRefs;
    this.loginAttempts = Math.max(1, Math.floor(options.loginAttempts ?? 3));
    this.loginTimeout = Math.max(0, options.loginTimeout ?? 30);
    this.#loginDelay = options.loginDelay ?? 250;
    this.#maxLoginDelay = options.maxLoginDelay ?? 5000;
    const password = options.password;
    if (password === undefined || password === null || password === '') {
      this.password = randomBytes(8).toString('hex');
      this.#logger.info(`Telnet Password: ${this.password}`);
    } else {
      this.password = password;
    }
  }

  /**
   * Reads TELNETCONSOLE_*; NotConfigured when TELNETCONSOLE_ENABLED is false.
   * `engineAccess` gives the console its `engine` and `est()` rows.
   */
  static fromCrawler(crawler: Crawler, engineAccess?: TelnetEngineAccess): TelnetConsole {
    const settings = crawler.settings;
    if (!settings.getBool('TELNETCONSOLE_ENABLED')) throw new NotConfigured('TELNETCONSOLE_ENABLED is false');
    // The engine's crawler offers its state as `engineAccess` (built-ins are made with fromCrawler(crawler) only).
    engineAccess ??= (crawler as Crawler & { engineAccess?: TelnetEngineAccess }).engineAccess;
    const liveRefs = engineAccess?.liveRefs;
    return new TelnetConsole({
      host: settings.get('TELNETCONSOLE_HOST'),
      portRange: settings.get('TELNETCONSOLE_PORT'),
      username: settings.get('TELNETCONSOLE_USERNAME'),
      password: settings.get('TELNETCONSOLE_PASSWORD'),
      // A bad value is reported, as every other extension's: it was clamped without a word.
      loginAttempts: settingAtLeast(settings, 'TELNETCONSOLE_LOGIN_ATTEMPTS', settings.getInt('TELNETCONSOLE_LOGIN_ATTEMPTS'), 1,
        'it is how many logins one connection may try, and 0 would refuse every login'),
      loginTimeout: settingAtLeast(settings, 'TELNETCONSOLE_LOGIN_TIMEOUT', settings.getFloat('TELNETCONSOLE_LOGIN_TIMEOUT'), 0, 'use 0 for no limit'),
      logger: crawler.logBus.getLogger(TELNET_LOGGER),
      context: () => ({
        crawler,
        ...(engineAccess === undefined ? {} : { engine: engineAccess.engine }),
        spider: crawler.spider,
        settings,
        stats: crawler.stats,
        ...engineAccess?.vars?.(),
      }),
      engineStatus: engineAccess === undefined
        ? () => [['spider.name', crawler.spider.name]]
        : () => engineAccess.engineStatus(),
      liveRefs: liveRefs === undefined ? undefined : () => liveRefs.call(engineAccess),
    });
  }

  /** Listens on the first free port of the range and logs `Telnet console listening on <host>:<port>`. Calling it again while listening returns the same address. */
  start(): Promise<TelnetAddress> {
    this.#started ??= this.#listen();
    return this.#started;
  }

  /** Stops listening and drops every connected client. */
  async stop(): Promise<void> {
    const started = this.#started;
    if (started === undefined) return;
    this.#started = undefined;
    await started.catch(() => undefined);
    const server = this.#server;
    this.#server = undefined;
    for (const session of [...this.#sessions]) session.close();
    this.#sessions.clear();
    if (server?.listening === true) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Scrapy listens on engine_started; a console that cannot listen is logged and the crawl goes on, as there. */
  async openSpider(): Promise<void> {
    try {
      await this.start();
    } catch (error) {
      this.#logger.error((error as Error).message);
    }
  }

  async closeSpider(): Promise<void> {
    await this.stop();
  }

  async #listen(): Promise<TelnetAddress> {
    const server = createServer((socket) => this.#accept(server, socket));
    // The console watches a crawl; it must never be what keeps the process alive after it.
    server.unref();
    this.#server = server;
    try {
      const address = await listenOnRange(server, this.host, this.portRange);
      this.#logger.info(`Telnet console listening on ${address.address}:${address.port}`);
      return { host: address.address, port: address.port };
    } catch (error) {
      this.#server = undefined;
      this.#started = undefined;
      throw error;
    }
  }

  #accept(server: Server, socket: Socket): void {
    if (this.#server !== server) {
      socket.destroy();
      return;
    }
    socket.unref();
    socket.setNoDelay(true);
    const session = new TelnetSession(
      socket,
      {
        authenticate: (username, password, stillWanted) => this.#check(username, password, stillWanted),
        loginAttempts: this.loginAttempts,
        loginTimeout: this.loginTimeout,
        onLoginDropped: (reason, failures) => this.#loginDropped(socket, reason, failures),
        vars: (output) => ({
          ...consoleHelpers(output, { engineStatus: this.#engineStatus, liveRefs: this.#liveRefs }),
          ...this.#context(),
        }),
        banner: CONSOLE_BANNER,
      },
      (closed) => this.#sessions.delete(closed),
    );
    this.#sessions.add(session);
  }

  /**
   * One login check at a time, console-wide; after a failure the next check
   * waits (250 ms, doubling up to 5 s), so guessing the password from any
   * number of connections is a few tries a second at most, then one per 5 s.
   * A check with nothing to wait for is answered at once.
   */
  #check(username: string, password: string, stillWanted: () => boolean = () => true): boolean | Promise<boolean> {
    if (this.#waitingChecks === 0 && Date.now() >= this.#nextCheckAt) return this.#verify(username, password);
    this.#waitingChecks += 1;
    const checked = this.#checks.then(async () => {
      // A connection closed while it waited (timed out, dropped by its client) is not checked: it costs no one a delay.
      if (!stillWanted()) return false;
      const wait = this.#nextCheckAt - Date.now();
      if (wait > 0) await new Promise<void>((resolve) => setTimeout(resolve, wait).unref());
      if (!stillWanted()) return false;
      return this.#verify(username, password);
    });
    this.#checks = checked.finally(() => {
      this.#waitingChecks -= 1;
    }).catch(() => undefined);
    return checked;
  }

  #verify(username: string, password: string): boolean {
    const ok = this.#authenticate(username, password);
    if (ok) {
      this.#failedLogins = 0;
      this.#nextCheckAt = 0;
    } else {
      this.#failedLogins += 1;
      this.#nextCheckAt = Date.now() + loginDelayAfter(this.#failedLogins, this.#loginDelay, this.#maxLoginDelay);
    }
    return ok;
  }

  #loginDropped(socket: Socket, reason: 'attempts' | 'timeout', failures: number): void {
    const peer = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    if (reason === 'attempts') {
      this.#logger.warning(`Telnet console: dropped the connection from ${peer} after ${failures} failed logins`);
      return;
    }
    // Once at WARNING, then DEBUG: connections left open must not flood the log.
    const message = `Telnet console: dropped the connection from ${peer}, which did not log in within ${this.loginTimeout} s`;
    if (this.#timeoutsLogged++ === 0) this.#logger.warning(`${message} (further ones are logged at DEBUG)`);
    else this.#logger.debug(message);
  }

  // Compared as digests with timingSafeEqual, so the time taken says nothing about the password.
  #authenticate(username: string, password: string): boolean {
    const userOk = timingSafeEqual(digest(username), digest(this.username));
    const passwordOk = timingSafeEqual(digest(password), digest(this.password));
    return userOk && passwordOk;
  }
}
