/**
 * Log events travel as an RxJS stream. A `LogBus` is a Subject of
 * `LogEvent`s: loggers emit into it, and sinks (stderr, LOG_FILE, a crawl's
 * `logs$`, stats, a test) subscribe to `events$`. A crawl can own a bus so its
 * events stay apart from another crawl's in the same process; module-level
 * code that has no crawl at hand logs to `defaultLogBus`, which the CLI's sink
 * listens to.
 *
 * The bus is hot and keeps nothing: events emitted while nobody subscribes
 * are dropped, like Python records reaching a logger with no handler.
 */
import { Observable, Subject } from 'rxjs';
import { LOG_LEVELS, type LogLevel } from '../settings/log-levels.js';
import type { LogEvent } from './log-event.js';

export type LogExtra = Readonly<Record<string, unknown>>;

export class Logger {
  constructor(
    readonly name: string,
    private readonly bus: LogBus,
  ) {}

  log(level: LogLevel, message: string, extra?: LogExtra): void {
    if (!this.bus.wants(level)) return;
    this.bus.emit(extra === undefined
      ? { time: this.bus.now(), logger: this.name, level, message }
      : { time: this.bus.now(), logger: this.name, level, message, extra });
  }

  debug(message: string, extra?: LogExtra): void {
    this.log('DEBUG', message, extra);
  }

  info(message: string, extra?: LogExtra): void {
    this.log('INFO', message, extra);
  }

  warning(message: string, extra?: LogExtra): void {
    this.log('WARNING', message, extra);
  }

  error(message: string, extra?: LogExtra): void {
    this.log('ERROR', message, extra);
  }

  critical(message: string, extra?: LogExtra): void {
    this.log('CRITICAL', message, extra);
  }
}

export interface LogBusOptions {
  /** The clock that stamps events; tests pass a fixed one. */
  readonly now?: () => Date;
}

export class LogBus {
  readonly #subject = new Subject<LogEvent>();
  readonly #loggers = new Map<string, Logger>();
  readonly now: () => Date;
  /** Subscribers of `events$`, which take every level. */
  #allLevels = 0;
  /** Subscribers of `eventsAt(level)`, by the level they start at. */
  readonly #fromLevel = new Map<LogLevel, number>();
  /** The lowest level any subscriber takes (Infinity: nobody listens). */
  #floor = Infinity;

  /** Every event emitted from now on, until `complete()`. */
  readonly events$: Observable<LogEvent> = new Observable<LogEvent>((subscriber) => {
    this.#allLevels++;
    this.#refloor();
    const subscription = this.#subject.subscribe(subscriber);
    return () => {
      subscription.unsubscribe();
      this.#allLevels--;
      this.#refloor();
    };
  });

  /**
   * The events at `level` and above: what a sink or counter set to LOG_LEVEL
   * takes. While every subscriber is one of these, a line below all their
   * levels is not even built: at LOG_LEVEL=INFO a crawl's `Crawled (200)` and
   * `Scraped from` lines (an item's JSON each) cost nothing
   * (docs/performance.md, "CPU per page").
   */
  eventsAt(level: LogLevel): Observable<LogEvent> {
    const threshold = LOG_LEVELS[level];
    return new Observable<LogEvent>((subscriber) => {
      this.#fromLevel.set(level, (this.#fromLevel.get(level) ?? 0) + 1);
      this.#refloor();
      const subscription = this.#subject.subscribe({
        next: (event) => {
          if (LOG_LEVELS[event.level] >= threshold) subscriber.next(event);
        },
        complete: () => subscriber.complete(),
        error: (error: unknown) => subscriber.error(error),
      });
      return () => {
        subscription.unsubscribe();
        const left = (this.#fromLevel.get(level) ?? 1) - 1;
        if (left === 0) this.#fromLevel.delete(level);
        else this.#fromLevel.set(level, left);
        this.#refloor();
      };
    });
  }

  /** False when no subscriber would receive an event at `level`: loggers then skip it. */
  wants(level: LogLevel): boolean {
    return LOG_LEVELS[level] >= this.#floor;
  }

  #refloor(): void {
    let floor = this.#allLevels > 0 ? -Infinity : Infinity;
    for (const level of this.#fromLevel.keys()) floor = Math.min(floor, LOG_LEVELS[level]);
    this.#floor = floor;
  }

  constructor(options: LogBusOptions = {}) {
    this.now = options.now ?? (() => new Date());
  }

  emit(event: LogEvent): void {
    if (this.#holds > 0) this.#held.push(event);
    else this.#subject.next(event);
  }

  #held: LogEvent[] = [];
  #holds = 0;

  /**
   * Holds every event until the returned function is called, then emits
   * them in order. inspectResponse holds a crawl's log while its console is
   * open, so no log line lands in the middle of what the user types.
   * Holds nest; the events flow again when the last one is released.
   */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds > 0) return;
      const events = this.#held;
      this.#held = [];
      for (const event of events) this.#subject.next(event);
    };
  }

  /** The logger named `name` on this bus; the same object for the same name, like Python's getLogger. */
  getLogger(name: string): Logger {
    let logger = this.#loggers.get(name);
    if (logger === undefined) {
      logger = new Logger(name, this);
      this.#loggers.set(name, logger);
    }
    return logger;
  }

  /** Ends `events$` for every subscriber (a crawl's bus, when the crawl is over). */
  complete(): void {
    this.#subject.complete();
  }
}

/** The process-wide bus: what `getLogger(name)` logs to when no bus is given. */
export const defaultLogBus = new LogBus();

export function getLogger(name: string, bus: LogBus = defaultLogBus): Logger {
  return bus.getLogger(name);
}
