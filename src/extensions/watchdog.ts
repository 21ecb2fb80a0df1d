import { closeSync, openSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Subscription } from 'rxjs';
import type { Extension } from '../contracts/components.js';
import { NotConfigured } from '../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { CrawlEvent } from '../contracts/events.js';
import type { Request } from '../http/request.js';
import { getLogger, type Logger } from '../log/index.js';
import { SettingsError } from '../settings/settings-error.js';
import { settingAtLeast } from '../settings/setting-at-least.js';
import { WATCHDOG_WORKER_SOURCE } from './watchdog-worker.js';

/** The watchdog's logger. */
export const WATCHDOG_LOGGER = 'seine.extensions.watchdog';

/**
 * A SIGINT/SIGTERM listener carrying this property (as `seine crawl`'s and
 * `seine runspider`'s do) ends the process on the second signal: the
 * watchdog then watches the signals too, and forces that second one itself
 * while the event loop is blocked. Without such a listener it leaves signals
 * alone (a process with no listener keeps the default action: the signal
 * ends it even while the loop is blocked).
 */
export const FORCES_ON_SECOND_SIGNAL = Symbol.for('seine.forcesOnSecondSignal');

/** globalThis[HOOKS]: watchdog id → the function the worker calls through the inspector. */
const HOOKS = Symbol.for('seine.watchdog');

// The real timers, taken when the module loads: a test's fake timers must not stop the heartbeat.
const realSetInterval = globalThis.setInterval;
const realClearInterval = globalThis.clearInterval;

/** Shared memory: 4 Int32 slots (beat, label length, label beat, worker ready), then the label's bytes. */
const READY = 3;
const LABEL_OFFSET = 16;
const LABEL_BYTES = 2048;

type WorkerMessage =
  | { kind: 'ready'; inspector: boolean }
  | { kind: 'stopped' }
  | { kind: 'blocked'; seq: number; text: string; blockedMs: number; url: string | null }
  | { kind: 'unblocked'; seq: number; text: string; blockedMs: number }
  | { kind: 'signal'; seq: number; text: string }
  | { kind: 'force'; seq: number; text: string; reason: string; blockedMs: number };

export interface WatchdogOptions {
  readonly stats: Pick<StatsCollector, 'inc' | 'max'>;
  /** WATCHDOG_WARNING_SECONDS: a block this long is logged as a WARNING. */
  readonly warningSeconds: number;
  /** CLOSESPIDER_TIMEOUT; 0 or absent: none. */
  readonly closeTimeoutSeconds?: number;
  /** WATCHDOG_CLOSE_GRACE_SECONDS: how long the loop may stay blocked after CLOSESPIDER_TIMEOUT before the process is ended. */
  readonly graceSeconds?: number;
  /** Watch SIGINT/SIGTERM (default: when a listener has FORCES_ON_SECOND_SIGNAL). */
  readonly watchSignals?: boolean;
  /** The heartbeat's period in ms; default 100. */
  readonly tickMs?: number;
  /** How long the worker waits for the main thread to end the process before it kills it (SIGKILL); default 3000 ms. */
  readonly forceWaitMs?: number;
  /** Ends the process (default forceExit); a test's stub. */
  readonly exit?: (code: number) => void;
  /** Default `seine.extensions.watchdog` on the default bus. */
  readonly logger?: Logger;
}

/**
 * Reports code that blocks the event loop, and ends a process whose loop
 * stays blocked when it must end (CLOSESPIDER_TIMEOUT, a second Ctrl-C).
 *
 * The main thread cannot watch itself while one of its callbacks runs, so
 * the watching is done by a worker thread (watchdog-worker.ts), started when
 * the spider opens and terminated when it closes (unref'd: it never keeps
 * the process alive). The main thread increments a heartbeat counter in
 * shared memory every 100 ms, and writes there the request and callback
 * name of each callback (or errback) that starts. When the counter stops for
 * WATCHDOG_WARNING_SECONDS, the worker has the main thread log
 *
 *     WARNING: The event loop has been blocked for 5.0 s, in the callback of <GET http://…/page> (parse)
 *
 * (stat `watchdog/blocked_count`), and when it moves again
 * `The event loop was blocked for 12.3 s, …` (`watchdog/blocked_max_seconds`).
 * "In the callback of" names the callback that started in the turn of the
 * event loop that blocked; otherwise the line says when the last one started.
 *
 * The worker reaches the blocked main thread through the inspector
 * (`Runtime.evaluate` of a registered hook, run at V8's next interrupt check,
 * which comes inside loops and backtracking regular expressions too), so
 * these lines appear during the block, through the crawl's log. It ends the
 * process (exit status 1, one CRITICAL line saying why) when
 * CLOSESPIDER_TIMEOUT has passed and the loop has stayed blocked for
 * WATCHDOG_CLOSE_GRACE_SECONDS since, and on a second SIGINT/SIGTERM while
 * the loop has been blocked for a second (it watches signals in its own
 * event loop). If the main thread does not answer within 3 s (native code
 * that never returns), the worker kills the process with SIGKILL, after
 * writing the line to standard error itself.
 */
export class Watchdog implements Extension {
  readonly #options: WatchdogOptions;
  readonly #logger: Logger;
  readonly #shared = new SharedArrayBuffer(LABEL_OFFSET + LABEL_BYTES);
  readonly #i32 = new Int32Array(this.#shared, 0, 4);
  readonly #label = new Uint8Array(this.#shared, LABEL_OFFSET, LABEL_BYTES);
  readonly #encoder = new TextEncoder();
  readonly #id = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  #worker: Worker | null = null;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #events: Subscription | undefined;
  #seen = 0;
  #stopped = false;

  constructor(options: WatchdogOptions) {
    this.#options = options;
    this.#logger = options.logger ?? getLogger(WATCHDOG_LOGGER);
    if (!(options.warningSeconds > 0)) throw new RangeError(`Watchdog warningSeconds must be a number > 0, got ${options.warningSeconds}`);
  }

  /** Reads WATCHDOG_*; NotConfigured when WATCHDOG_ENABLED is off. Records each callback that starts from the crawler's events. */
  static fromCrawler(crawler: Pick<Crawler, 'settings' | 'stats' | 'logBus' | 'events$'>): Watchdog {
    const { settings } = crawler;
    if (!settings.getBool('WATCHDOG_ENABLED')) throw new NotConfigured('WATCHDOG_ENABLED is off');
    const warningSeconds = settings.getFloat('WATCHDOG_WARNING_SECONDS');
    if (!(warningSeconds > 0)) {
      const source = settings.getSource('WATCHDOG_WARNING_SECONDS');
      throw new SettingsError(
        `Setting WATCHDOG_WARNING_SECONDS must be greater than 0, got ${warningSeconds}${source === undefined ? '' : ` (from ${source})`}: ` +
          'it is how long the event loop may stay blocked before a WARNING; set WATCHDOG_ENABLED to false to turn the watchdog off',
      );
    }
    const graceSeconds = settingAtLeast(settings, 'WATCHDOG_CLOSE_GRACE_SECONDS', settings.getFloat('WATCHDOG_CLOSE_GRACE_SECONDS'), 0, 'it is a number of seconds');
    const closeTimeoutSeconds = Math.max(0, settings.getFloat('CLOSESPIDER_TIMEOUT'));
    const extension = new Watchdog({
      stats: crawler.stats,
      warningSeconds,
      closeTimeoutSeconds,
      graceSeconds,
      logger: crawler.logBus.getLogger(WATCHDOG_LOGGER),
    });
    extension.#events = crawler.events$.subscribe((event) => extension.handle(event));
    return extension;
  }

  /** Records the callback (or errback) about to run: the engine emits these events just before it calls it. */
  handle(event: CrawlEvent): void {
    if (event.type === 'response_received') this.callbackStarted(event.request, false);
    else if (event.type === 'download_error' && event.request.errback !== null) this.callbackStarted(event.request, true);
    else if (event.type === 'spider_closed') this.#events?.unsubscribe();
  }

  /** Writes `<GET url> (parse)` and the current beat into the shared memory. */
  callbackStarted(request: Request, errback: boolean): void {
    const fn = errback ? request.errback : request.callback;
    const name = (fn?.name ?? '').replace(/^bound /, '') || (errback ? 'errback' : 'parse');
    const text = `${request.toString()} (${errback ? `errback ${name}` : name})`;
    const { written } = this.#encoder.encodeInto(text, this.#label);
    Atomics.store(this.#i32, 1, written);
    Atomics.store(this.#i32, 2, Atomics.load(this.#i32, 0));
  }

  /**
   * Starts the heartbeat and the worker, without waiting for the worker to watch: its thread boots (~50–100 ms)
   * beside the crawl, and the beat it reads is already moving, so a block that starts meanwhile is still seen once
   * it runs. A worker that cannot start is one WARNING.
   */
  async openSpider(): Promise<void> {
    if (this.#worker !== null || this.#stopped) return;
    const options = this.#options;
    const tickMs = options.tickMs ?? 100;
    this.#heartbeat = realSetInterval(() => Atomics.add(this.#i32, 0, 1), tickMs);
    this.#heartbeat.unref();
    const hooks = ((globalThis as Record<symbol, unknown>)[HOOKS] ??= new Map<string, (json: string) => void>()) as Map<string, (json: string) => void>;
    hooks.set(this.#id, (json) => this.#receive(JSON.parse(json) as WorkerMessage));
    const watchSignals = options.watchSignals ?? ['SIGINT', 'SIGTERM'].some((signal) => process.listeners(signal as NodeJS.Signals).some((listener) => FORCES_ON_SECOND_SIGNAL in listener));
    let worker: Worker;
    try {
      worker = new Worker(WATCHDOG_WORKER_SOURCE, {
        eval: true,
        workerData: {
          shared: this.#shared,
          id: this.#id,
          tickMs,
          warnMs: options.warningSeconds * 1000,
          closeTimeoutMs: (options.closeTimeoutSeconds ?? 0) * 1000,
          graceMs: (options.graceSeconds ?? 0) * 1000,
          watchSignals,
          forceWaitMs: options.forceWaitMs ?? 3000,
          // A second signal is forced by the worker only when the main thread has not turned for this long (it answers otherwise).
          signalBlockedMs: 1000,
        },
        stdout: false,
        stderr: false,
        resourceLimits: { maxOldGenerationSizeMb: 16 },
      });
    } catch (error) {
      await this.#cannotStart(error);
      return;
    }
    this.#worker = worker;
    worker.unref();
    worker.on('message', (message: WorkerMessage) => {
      this.#receive(message);
    });
    worker.on('error', (error) => {
      if (this.#ready()) this.#logger.warning(`The watchdog's worker failed: ${error.message}; blocked event loops are no longer reported`);
      else void this.#cannotStart(error);
    });
    worker.once('exit', (code) => {
      if (!this.#ready() && this.#worker === worker) void this.#cannotStart(new Error(`the worker exited (${code})`));
    });
  }

  /** The worker watches (it says so in shared memory, which a main thread that has not turned since can read too). */
  #ready(): boolean {
    return Atomics.load(this.#i32, READY) === 1;
  }

  async #cannotStart(error: unknown): Promise<void> {
    if (this.#stopped) return;
    this.#logger.warning(`The watchdog could not start: ${error instanceof Error ? error.message : String(error)}; blocked event loops are not reported`);
    await this.#stop();
  }

  async closeSpider(): Promise<void> {
    await this.#stop();
  }

  /** What the worker says, once (it comes both through the inspector hook and as a message). */
  #receive(message: WorkerMessage): void {
    if (message.kind === 'ready' || message.kind === 'stopped' || this.#stopped) return;
    if (message.seq <= this.#seen) return;
    this.#seen = message.seq;
    switch (message.kind) {
      case 'blocked':
        this.#options.stats.inc('watchdog/blocked_count');
        this.#logger.warning(message.text);
        break;
      case 'unblocked':
        this.#options.stats.max('watchdog/blocked_max_seconds', Math.round(message.blockedMs / 100) / 10);
        this.#logger.warning(message.text);
        break;
      case 'signal':
        this.#logger.warning(message.text);
        break;
      case 'force':
        this.#logger.critical(message.text);
        (this.#options.exit ?? forceExit)(1);
        break;
    }
  }

  async #stop(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    // A worker still booting has seen nothing to report: it is only terminated.
    if (worker !== null && !this.#stopped && this.#ready()) {
      // A block that ended just before the close is still reported (and counted): the beat moves,
      // the worker looks once more, and its messages arrive before its answer.
      Atomics.add(this.#i32, 0, 1);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 500);
        worker.on('message', (message: WorkerMessage) => {
          if (message.kind !== 'stopped') return;
          clearTimeout(timer);
          resolve();
        });
        worker.postMessage('stop');
      });
    }
    this.#stopped = true;
    if (this.#heartbeat !== undefined) realClearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    ((globalThis as Record<symbol, unknown>)[HOOKS] as Map<string, unknown> | undefined)?.delete(this.#id);
    if (worker !== null) await worker.terminate();
  }
}

/**
 * process.exit(code) from the hook, inside whatever the main thread was
 * running. Node prints `Waiting for the debugger to disconnect...` when a
 * process exits with an inspector session open (the worker's is): standard
 * error is pointed at /dev/null first, after the CRITICAL line was written
 * (writes to a terminal, a file or a pipe are synchronous on POSIX).
 */
export function forceExit(code: number): void {
  if (process.platform !== 'win32') {
    try {
      closeSync(2);
      openSync('/dev/null', 'w'); // takes the lowest free descriptor: 2
    } catch {
      // nothing more to hide
    }
  }
  process.exit(code);
}
