import { Observable, mergeMap, type OperatorFunction } from 'rxjs';
import type { Item } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { EngineState } from '../core/engine-state.js';

export interface ScrapedItem {
  item: Item;
  response: Response | null;
}

/**
 * Stage 6, item pipeline: each item through ITEM_PIPELINES' processItem in
 * order, up to CONCURRENT_ITEMS at once. Emits the items that came through
 * (item_scraped); a DropItem is an item_dropped event (`Dropped: …` at
 * WARNING), any other error an item_error; neither stops the crawl.
 */
export function itemPipeline(state: EngineState, concurrency: number): OperatorFunction<ScrapedItem, ScrapedItem> {
  return mergeMap(
    ({ item, response }) =>
      new Observable<ScrapedItem>((subscriber) => {
        void (async () => {
          let current = item;
          try {
            for (const pipeline of state.pipelines) current = await pipeline.processItem(current, state.spider);
            state.emit({ type: 'item_scraped', item: current, response });
            subscriber.next({ item: current, response });
          } catch (thrown) {
            const error = thrown instanceof Error ? thrown : new Error(String(thrown));
            if (error.name === 'DropItem') state.emit({ type: 'item_dropped', item: current, response, error });
            else state.emit({ type: 'item_error', item: current, response, error });
          } finally {
            state.end();
            subscriber.complete();
          }
        })();
      }),
    concurrency,
  );
}
