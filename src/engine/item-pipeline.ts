import { Observable, mergeMap, type OperatorFunction } from 'rxjs';
import type { Item } from '../http/request.js';
import type { Response } from '../http/response.js';
import { isCloseSpider } from '../contracts/control-flow.js';
import { isPromiseLike } from '../contracts/callback-output.js';
import type { EngineState } from './engine-state.js';
import type { Ticket } from './ticket.js';

export interface ScrapedItem {
  item: Item;
  response: Response | null;
  /** The ticket of the callback (or start) that produced the item; held until the item has gone through. */
  ticket: Ticket;
}

/**
 * Stage 6, item pipeline: each item through ITEM_PIPELINES' processItem in
 * order, up to CONCURRENT_ITEMS at once. Emits the items that came through
 * (item_scraped); a DropItem is an item_dropped event (`Dropped: …` at
 * WARNING), a CloseSpider closes the crawl with its reason, any other error
 * is an item_error; none stops other items. The item's hold on its ticket
 * is released after the item was emitted (and so written to the feeds).
 */
export function itemPipeline(state: EngineState, concurrency: number): OperatorFunction<ScrapedItem, ScrapedItem> {
  return mergeMap(
    ({ item, response, ticket }) =>
      new Observable<ScrapedItem>((subscriber) => {
        let live = true;
        void (async () => {
          let current = item;
          try {
            // A pipeline that answers at once is not awaited: an item through synchronous pipelines is scraped before
            // the next output of its callback is looked at, as it was when each output came a microtask apart.
            for (const pipeline of state.pipelines) {
              const processed = pipeline.processItem(current, state.spider) as unknown;
              current = (isPromiseLike(processed) ? await processed : processed) as Item;
            }
            if (!live) return;
            state.emit({ type: 'item_scraped', item: current, response });
            subscriber.next({ item: current, response, ticket });
          } catch (thrown) {
            const error = thrown instanceof Error ? thrown : new Error(String(thrown));
            if (isCloseSpider(error)) state.beginClose(error.reason);
            else if (state.failOn(error)) return;
            else if (error.name === 'DropItem') state.emit({ type: 'item_dropped', item: current, response, error });
            else state.emit({ type: 'item_error', item: current, response, error });
          } finally {
            if (live) {
              live = false;
              state.tickets.release(ticket);
            }
            subscriber.complete();
          }
        })();
        return () => {
          // Torn down (the crawl cancelled): the item never made it, and its ticket stays open, so a JOBDIR does not acknowledge it.
          live = false;
        };
      }),
    concurrency,
  );
}
