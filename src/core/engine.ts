import { Observable, Subject, filter, firstValueFrom, share, takeUntil } from 'rxjs';
import type { Item } from '../http/request.js';
import { isRequest } from '../http/request.js';
import type { SpiderOutput } from './components.js';
import type { EngineState } from './engine-state.js';
import { schedule } from '../operators/schedule.js';
import { throttle } from '../operators/throttle.js';
import { download } from '../operators/download.js';
import { gate } from '../operators/gate.js';
import { scrape } from '../operators/scrape.js';
import { itemPipeline, type ScrapedItem } from '../operators/item-pipeline.js';

/**
 * The crawl as one flow, in the order docs/architecture.md numbers:
 *
 *   1 start ─┐
 *            ├─▶ 2 schedule ─▶ 3 throttle ─▶ 4 download ─▶ gate ─▶ 5 scrape ─┬─▶ requests go back to 2
 *   requests ┘                                                                └─▶ 6 item pipeline ─▶ (7 feed sink, by the caller)
 *
 * Emits the items that came through the pipeline. Completes when the start
 * is exhausted and no request, callback or item is left (Scrapy's idle
 * rule), or when the crawl closes. Unsubscribing aborts what is in flight.
 */
export function engineFlow(state: EngineState, start: AsyncIterable<SpiderOutput>, itemConcurrency: number): Observable<ScrapedItem> {
  return new Observable<ScrapedItem>((subscriber) => {
    const items$ = new Subject<ScrapedItem>();
    const done$ = new Subject<void>();

    const scraped$ = state.requests$.pipe(schedule(state), throttle(state), download(state), gate(state), scrape(state), share());
    const fromCallbacks = scraped$.subscribe((scraped) => {
      if (isRequest(scraped.output)) state.schedule(scraped.output);
      else {
        state.begin();
        items$.next({ item: scraped.output, response: scraped.response });
      }
    });
    const itemsOut = items$.pipe(itemPipeline(state, itemConcurrency), takeUntil(done$)).subscribe(subscriber);

    const idle = state.wake$.pipe(filter(() => state.isIdle())).subscribe(() => {
      done$.next();
      subscriber.complete();
    });

    const pushItem = (item: Item): void => {
      state.begin();
      items$.next({ item, response: null });
    };
    void consumeStart(state, start, pushItem).catch((error: unknown) => subscriber.error(error));

    return () => {
      state.abort.abort();
      idle.unsubscribe();
      fromCallbacks.unsubscribe();
      itemsOut.unsubscribe();
    };
  });
}

/** Pulls the spider's start lazily: a new start request only while the scheduler is not full. */
async function consumeStart(state: EngineState, start: AsyncIterable<SpiderOutput>, pushItem: (item: Item) => void): Promise<void> {
  try {
    for await (const output of start) {
      if (state.closeReason !== null) break;
      if (isRequest(output)) state.schedule(output);
      else pushItem(output);
      // The scheduler starts queued requests on the next turn of the event
      // loop (src/operators/schedule.ts); without this wait `active` would
      // not have grown yet and the whole start would be drained at once.
      if (state.scheduler.hasPending()) await new Promise<void>((resolve) => setImmediate(resolve));
      while (state.active >= state.maxActive && state.scheduler.hasPending() && state.closeReason === null) {
        await firstValueFrom(state.wake$);
      }
    }
  } finally {
    state.startDone = true;
    state.wake$.next();
  }
}
