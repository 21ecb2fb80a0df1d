/**
 * What the dashboard knows of one crawl: counters and per-slot figures
 * reduced from the crawl's events, a per-second series for the charts, the
 * latest errors and a log tail. `snapshot()` is what the page, the service's
 * proxy and `/metrics` read; it is plain JSON.
 *
 * Kept here rather than read from the DownloadSlots alone because the
 * slots forget a site once it has been idle a while (DownloadSlots#collect)
 * and know nothing of statuses, latency or bans.
 */
import type { Subscription } from 'rxjs';
import type { Crawler } from '../contracts/crawler.js';
import type { CrawlEvent } from '../contracts/events.js';
import type { Request } from '../http/request.js';
import type { LogEvent } from '../log/log-event.js';

export type DashboardState = 'running' | 'paused' | 'closing' | 'finished';

export interface SlotView {
  key: string;
  active: number;
  /** Scheduled for this slot and not yet handed to the downloader (an estimate from the events). */
  waiting: number;
  concurrency: number | null;
  delaySeconds: number | null;
  /** DOWNLOAD_SLOTS `rate`, as requests per minute; null without one. */
  ratePerMinute: number | null;
  /** A moving average of `meta.download_latency`, seconds. */
  latencySeconds: number | null;
  /** Seconds until a Retry-After pause ends; null when not paused. */
  pausedForSeconds: number | null;
  responses: number;
  /** 429 and 403 answers: what a site says when it pushes back. */
  bans: { '429': number; '403': number };
}

export interface ErrorView {
  time: string;
  kind: string;
  url: string | null;
  message: string;
  stack: string;
}

export interface LogLine {
  time: string;
  level: string;
  logger: string;
  message: string;
}

export interface DashboardSnapshot {
  spider: string;
  state: DashboardState;
  finishReason: string | null;
  startedAt: string;
  elapsedSeconds: number;
  totals: { requests: number; responses: number; items: number; errors: number };
  /** One point a second: seconds since start and pages, items and errors per minute. */
  series: { t: number[]; pages: number[]; items: number[]; errors: number[] };
  statuses: Record<string, number>;
  slots: SlotView[];
  errors: ErrorView[];
  log: LogLine[];
}

interface SlotFigures {
  responses: number;
  bans: { '429': number; '403': number };
  latency: number | null;
  waiting: number;
}

const MAX_POINTS = 3600;
const MAX_ERRORS = 20;
const MAX_LOG_LINES = 200;
/** Rates are counted over the last 10 s, so a chart moves within seconds of a change yet does not flicker. */
const RATE_WINDOW_SECONDS = 10;
const LOG_LEVELS_SHOWN = new Set(['INFO', 'WARNING', 'ERROR', 'CRITICAL']);

export class CrawlWatch {
  readonly #crawler: Crawler;
  readonly #clock: () => number;
  readonly #startedAt: number;
  readonly #slots = new Map<string, SlotFigures>();
  readonly #statuses: Record<string, number> = {};
  readonly #totals = { requests: 0, responses: 0, items: 0, errors: 0 };
  readonly #errors: ErrorView[] = [];
  readonly #log: LogLine[] = [];
  readonly #series = { t: [] as number[], pages: [] as number[], items: [] as number[], errors: [] as number[] };
  /** Cumulative counts at each point, for the rates. */
  readonly #counts: Array<{ pages: number; items: number; errors: number }> = [];
  readonly #subscriptions: Subscription[] = [];
  /** Scheduled and not yet downloading or dropped: each counted once in its slot's `waiting`. */
  readonly #waiting = new WeakSet<Request>();
  state: DashboardState = 'running';
  finishReason: string | null = null;

  constructor(crawler: Crawler, clock: () => number = Date.now) {
    this.#crawler = crawler;
    this.#clock = clock;
    this.#startedAt = clock();
    this.#subscriptions.push(crawler.events$.subscribe((event) => this.#onEvent(event)));
    this.#subscriptions.push(crawler.logBus.events$.subscribe((event) => this.#onLog(event)));
  }

  /** Adds one point to the series (called once a second). */
  tick(): void {
    const now = (this.#clock() - this.#startedAt) / 1000;
    const counts = { pages: this.#totals.responses, items: this.#totals.items, errors: this.#totals.errors };
    this.#counts.push(counts);
    this.#series.t.push(Math.round(now * 10) / 10);
    // The oldest point within the window, by time: points come a second apart, but not exactly (the last one comes at the close).
    const times = this.#series.t;
    const last = times.length - 1;
    let back = Math.max(0, last - 1);
    while (back > 0 && times[last]! - times[back - 1]! <= RATE_WINDOW_SECONDS) back--;
    const then = this.#counts[back]!;
    const span = Math.max(1, times[last]! - times[back]!);
    const perMinute = (a: number, b: number): number => Math.round(((a - b) * 60) / span);
    this.#series.pages.push(perMinute(counts.pages, then.pages));
    this.#series.items.push(perMinute(counts.items, then.items));
    this.#series.errors.push(perMinute(counts.errors, then.errors));
    if (this.#counts.length > MAX_POINTS) {
      this.#counts.shift();
      for (const list of Object.values(this.#series)) list.shift();
    }
  }

  stop(): void {
    for (const subscription of this.#subscriptions) subscription.unsubscribe();
  }

  snapshot(): DashboardSnapshot {
    const now = this.#clock();
    return {
      spider: this.#crawler.spider.name,
      state: this.state,
      finishReason: this.finishReason,
      startedAt: new Date(this.#startedAt).toISOString(),
      elapsedSeconds: Math.round((now - this.#startedAt) / 1000),
      totals: { ...this.#totals },
      series: { t: [...this.#series.t], pages: [...this.#series.pages], items: [...this.#series.items], errors: [...this.#series.errors] },
      statuses: { ...this.#statuses },
      slots: this.#slotViews(now),
      errors: [...this.#errors],
      log: [...this.#log],
    };
  }

  #slotKey(request: Request): string {
    const slots = this.#crawler.downloadSlots;
    if (slots !== undefined) return slots.slotKey(request);
    try {
      return new URL(request.url).hostname;
    } catch {
      return '?';
    }
  }

  #figures(key: string): SlotFigures {
    let figures = this.#slots.get(key);
    if (figures === undefined) {
      figures = { responses: 0, bans: { '429': 0, '403': 0 }, latency: null, waiting: 0 };
      this.#slots.set(key, figures);
    }
    return figures;
  }

  #onEvent(event: CrawlEvent): void {
    switch (event.type) {
      case 'request_scheduled':
        if (!this.#waiting.has(event.request)) {
          this.#waiting.add(event.request);
          this.#figures(this.#slotKey(event.request)).waiting++;
        }
        break;
      case 'request_reached_downloader':
        this.#totals.requests++;
        this.#stopWaiting(event.request);
        break;
      case 'request_dropped':
        this.#stopWaiting(event.request);
        break;
      case 'response_received': {
        this.#totals.responses++;
        const status = String(event.response.status);
        this.#statuses[status] = (this.#statuses[status] ?? 0) + 1;
        const figures = this.#figures(this.#slotKey(event.request));
        figures.responses++;
        if (status === '429' || status === '403') figures.bans[status]++;
        const latency = event.request.meta['download_latency'];
        if (typeof latency === 'number' && Number.isFinite(latency)) {
          // An exponential average over ~5 responses: recent enough to see a site slow down.
          figures.latency = figures.latency === null ? latency : figures.latency * 0.8 + latency * 0.2;
        }
        break;
      }
      case 'item_scraped':
        this.#totals.items++;
        break;
      case 'download_error':
        this.#addError('download_error', event.request.url, event.error);
        break;
      case 'spider_error':
        this.#addError('spider_error', event.response?.url ?? null, event.error);
        break;
      case 'item_error':
        this.#addError('item_error', event.response?.url ?? null, event.error);
        break;
      case 'engine_error':
        this.#addError(`engine_error (${event.stage})`, event.request?.url ?? null, event.error);
        break;
      default:
        break;
    }
  }

  #stopWaiting(request: Request): void {
    if (!this.#waiting.delete(request)) return;
    const figures = this.#figures(this.#slotKey(request));
    figures.waiting = Math.max(0, figures.waiting - 1);
  }

  #addError(kind: string, url: string | null, error: Error): void {
    this.#totals.errors++;
    this.#errors.unshift({ time: new Date(this.#clock()).toISOString(), kind, url, message: `${error.name}: ${error.message}`, stack: error.stack ?? String(error) });
    if (this.#errors.length > MAX_ERRORS) this.#errors.pop();
  }

  #onLog(event: LogEvent): void {
    if (!LOG_LEVELS_SHOWN.has(event.level)) return;
    this.#log.push({ time: event.time.toISOString(), level: event.level, logger: event.logger, message: event.message });
    if (this.#log.length > MAX_LOG_LINES) this.#log.shift();
  }

  #slotViews(now: number): SlotView[] {
    const live = this.#crawler.downloadSlots?.slots;
    const keys = new Set<string>([...this.#slots.keys(), ...(live?.keys() ?? [])]);
    return [...keys].sort().map((key) => {
      const slot = live?.get(key);
      const figures = this.#figures(key);
      const pauseLeft = slot === undefined ? 0 : slot.pauseLeft(now);
      return {
        key,
        active: slot?.active.size ?? 0,
        waiting: figures.waiting,
        concurrency: slot?.concurrency ?? null,
        delaySeconds: slot === undefined ? null : slot.delayMs / 1000,
        ratePerMinute: slot === undefined || slot.rateIntervalMs <= 0 ? null : Math.round((60_000 / slot.rateIntervalMs) * 100) / 100,
        latencySeconds: figures.latency === null ? null : Math.round(figures.latency * 1000) / 1000,
        pausedForSeconds: pauseLeft > 0 ? Math.round(pauseLeft / 100) / 10 : null,
        responses: figures.responses,
        bans: { ...figures.bans },
      };
    });
  }
}
