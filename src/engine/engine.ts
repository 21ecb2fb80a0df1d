import { NEVER, Observable, Subject, merge } from 'rxjs';
import { isRequest, type Request } from '../http/request.js';
import { notAnOutput } from '../contracts/callback-output.js';
import type { SpiderOutput } from '../contracts/components.js';
import type { EngineState } from './engine-state.js';
import type { Ticket } from './ticket.js';
import { isCloseSpider } from '../contracts/control-flow.js';
import { schedule } from './schedule.js';
import { throttle } from './throttle.js';
import { download } from './download.js';
import { gate } from './gate.js';
import { scrape, type Scraped } from './scrape.js';
import { itemPipeline, type ScrapedItem } from './item-pipeline.js';

/** What the crawl asks the spider_idle handlers, and what they answered. */
export type IdleVerdict = { keepOpen: true } | { keepOpen: false; closeReason: string | null };

/**
 * Scrapy's engine re-checks an idle crawl that a spider_idle handler kept
 * open (DontCloseSpider) on its 5-second heartbeat; seine does the same.
 */
export const IDLE_RECHECK_MS = 5000;

export interface EngineFlowOptions {
  /** CONCURRENT_ITEMS. */
  readonly itemConcurrency: number;
  /** Sends spider_idle to its handlers when the crawl is idle; without it the idle crawl ends. */
  readonly onIdle?: () => Promise<IdleVerdict>;
  /** How many outputs of the start an earlier run (JOBDIR) already recorded: they are skipped. */
  readonly startOffset?: number;
  /** Each output of the start as it is recorded (JOBDIR counts them). */
  readonly onStartOutput?: (index: number) => void;
  /** The start has ended: `complete` when it ran to its end (or failed), false when the close stopped it. */
  readonly onStartDone?: (complete: boolean) => void;
}

/**
 * The crawl as one flow, in the order docs/architecture.md numbers:
 *
 *   1 start ─┐
 *            ├─▶ 2 schedule ─▶ 3 throttle ─▶ 4 download ─▶ gate ─▶ 5 scrape ─┬─▶ requests go back to 2
 *   requests ┘                                                                └─▶ 6 item pipeline ─▶ (7 feed sink, by the caller)
 *
 * Emits the items that came through the pipeline (with commitPerTicket,
 * those of a ticket together when it closes). Completes when no ticket is
 * open and nothing is queued (Scrapy's idle rule; the start is a ticket) and
 * no spider_idle handler keeps the crawl open, or when the crawl closes.
 * Errors only on a fault of the engine itself (the caller closes cleanly).
 * Unsubscribing aborts what is in flight.
 */
export function engineFlow(state: EngineState, start: AsyncIterable<SpiderOutput>, options: EngineFlowOptions): Observable<ScrapedItem> {
  return new Observable<ScrapedItem>((subscriber) => {
    const items$ = new Subject<ScrapedItem>();
    let finished = false;
    const fail = (error: unknown): void => {
      if (finished) return;
      finished = true;
      subscriber.error(error);
    };

    const route = (scraped: Scraped): void => {
      if (isRequest(scraped.output)) return void state.schedule(scraped.output);
      const wrong = notAnOutput(scraped.output);
      if (wrong === null) return hold(scraped.ticket, { item: scraped.output, response: scraped.response, ticket: scraped.ticket });
      // Scrapy's scraper logs this and goes on; as an item it would reach the feed as {} or {"0": …}.
      reportNotAnOutput(state, wrong, scraped.ticket.request);
    };
    const hold = (ticket: Ticket, item: ScrapedItem): void => {
      state.tickets.hold(ticket);
      items$.next(item);
    };

    const scraped = state.requests$
      .pipe(schedule(state), throttle(state), download(state), gate(state), scrape(state))
      .subscribe({ next: route, error: fail });
    const itemsOut = items$.pipe(itemPipeline(state, options.itemConcurrency)).subscribe({
      next: (item) => {
        if (state.commitPerTicket) (item.ticket.items ??= []).push(item);
        else subscriber.next(item);
      },
      error: fail,
    });
    const committed = state.commitPerTicket
      ? state.tickets.closed$.subscribe((ticket) => {
          for (const item of (ticket.items ?? []) as ScrapedItem[]) subscriber.next(item);
        })
      : null;

    // The idle check: when no ticket is open and nothing is queued, ask the spider_idle handlers.
    let asking = false;
    let recheck: ReturnType<typeof setTimeout> | null = null;
    const checkIdle = (): void => {
      if (finished || asking || !state.isIdle()) return;
      if (state.closeReason !== null || options.onIdle === undefined) {
        finish();
        return;
      }
      asking = true;
      options.onIdle().then(
        (verdict) => {
          asking = false;
          if (!verdict.keepOpen && verdict.closeReason !== null) state.beginClose(verdict.closeReason);
          if (finished || !state.isIdle()) return; // handlers added requests: the crawl goes on
          if (verdict.keepOpen && state.closeReason === null) {
            recheck ??= setTimeout(() => {
              recheck = null;
              checkIdle();
            }, IDLE_RECHECK_MS);
            return;
          }
          finish();
        },
        (error: unknown) => {
          asking = false;
          fail(error);
        },
      );
    };
    const finish = (): void => {
      if (finished) return;
      finished = true;
      subscriber.complete();
    };
    const idle = merge(state.tickets.changed$, state.sharedQueue?.changed$ ?? NEVER).subscribe(checkIdle);
    const fatal = state.fatal$.subscribe(fail);

    const startTicket = state.tickets.openStart();
    void consumeStart(state, start, hold, options)
      .then((complete) => {
        options.onStartDone?.(complete);
        state.tickets.settle(startTicket, 'done');
      })
      .catch(fail);

    return () => {
      finished = true;
      state.abort.abort();
      if (recheck !== null) clearTimeout(recheck);
      idle.unsubscribe();
      fatal.unsubscribe();
      scraped.unsubscribe();
      itemsOut.unsubscribe();
      committed?.unsubscribe();
    };
  });
}

/**
 * Pulls the spider's start lazily: a new start request only while the
 * scheduler is not full. Each item it yields has a ticket of its own, so it
 * is committed like a callback's. The start's progress (how many outputs
 * are recorded: requests once queued, items once written) is reported as a
 * contiguous count, which a JOBDIR skips on the next run. A throw from
 * `start()` (or a middleware's processStart) ends the start with an
 * `engine_error` — the requests it gave until then are crawled — and a
 * CloseSpider closes the crawl with its reason. Resolves false when the
 * crawl's close stopped it before its end, else true.
 */
async function consumeStart(
  state: EngineState,
  start: AsyncIterable<SpiderOutput>,
  hold: (ticket: Ticket, item: ScrapedItem) => void,
  options: EngineFlowOptions,
): Promise<boolean> {
  const skip = options.startOffset ?? 0;
  // Another worker of a shared crawl runs the start: this one does not even call it.
  if (skip === Number.POSITIVE_INFINITY) return true;
  let recorded = skip;
  const done = new Set<number>();
  const record = (index: number): void => {
    done.add(index);
    const before = recorded;
    while (done.delete(recorded + 1)) recorded++;
    if (recorded !== before) options.onStartOutput?.(recorded);
  };
  let index = 0;
  try {
    for await (const output of start) {
      if (state.closeReason !== null) return false;
      if (++index <= skip) continue; // recorded by an earlier run of this JOBDIR
      const position = index;
      const wrong = isRequest(output) ? null : notAnOutput(output);
      if (isRequest(output)) {
        state.schedule(output);
        record(position);
      } else if (wrong !== null) {
        reportNotAnOutput(state, wrong, null);
        record(position);
      } else {
        const ticket = state.tickets.openStart();
        ticket.afterClose = () => record(position);
        hold(ticket, { item: output, response: null, ticket });
        state.tickets.settle(ticket, 'done');
      }
      // The scheduler starts queued requests on the next turn of the event
      // loop (src/engine/schedule.ts); without this wait the active count
      // would not have grown yet and the whole start would be drained at once.
      if (state.scheduler.hasPending()) await new Promise<void>((resolve) => setImmediate(resolve));
      while (state.active >= state.maxActive && state.scheduler.hasPending() && state.closeReason === null) {
        await new Promise<void>((resolve) => {
          const sub = state.tickets.changed$.subscribe(() => {
            sub.unsubscribe();
            resolve();
          });
        });
      }
    }
  } catch (error) {
    if (isCloseSpider(error)) state.beginClose(error.reason);
    else state.fault('start', null, error);
  }
  return state.closeReason === null;
}

/** Scrapy's scraper logs an output that is neither a Request nor an item and goes on; as an item it would reach the feed as {} or {"0": …}. */
function reportNotAnOutput(state: EngineState, wrong: string, request: Request | null): void {
  const where = request === null ? ' in start()' : ` in ${request.toString()}`;
  state.crawler.logBus.getLogger('seine.core.scraper').error(`Spider must return request, item, or null, got '${wrong}'${where}: yield an object ({ value: … }) or a Request`);
}
