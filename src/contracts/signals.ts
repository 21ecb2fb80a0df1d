import type { CrawlEvent, CrawlEventType } from './events.js';

export type SignalHandler<T extends CrawlEventType = CrawlEventType> = (event: Extract<CrawlEvent, { type: T }>) => unknown;
type AnyHandler = (event: CrawlEvent) => unknown;

/**
 * Scrapy's signal manager for the events whose handlers answer back:
 * `crawler.signals.connect('spider_idle', handler)`. A handler may be async;
 * what it throws is collected, not raised, so one handler never stops the
 * next (Scrapy's send_catch_log). `crawler.events$` is the read-only view
 * of the same events for observers.
 */
export class Signals {
  readonly #handlers = new Map<CrawlEventType, AnyHandler[]>();

  /** Calls `handler` for every event of `type`; returns a function that disconnects it. */
  connect<T extends CrawlEventType>(type: T, handler: SignalHandler<T>): () => void {
    const list = this.#handlers.get(type) ?? [];
    list.push(handler as unknown as AnyHandler);
    this.#handlers.set(type, list);
    return () => this.disconnect(type, handler);
  }

  disconnect<T extends CrawlEventType>(type: T, handler: SignalHandler<T>): void {
    const list = this.#handlers.get(type);
    if (list === undefined) return;
    const index = list.indexOf(handler as unknown as AnyHandler);
    if (index >= 0) list.splice(index, 1);
  }

  hasHandlers(type: CrawlEventType): boolean {
    return (this.#handlers.get(type)?.length ?? 0) > 0;
  }

  /** Calls each handler of the event's type in order, awaiting each; resolves with what they threw. */
  async send(event: CrawlEvent): Promise<Error[]> {
    const errors: Error[] = [];
    for (const handler of [...(this.#handlers.get(event.type) ?? [])]) {
      try {
        await handler(event);
      } catch (thrown) {
        errors.push(thrown instanceof Error ? thrown : new Error(String(thrown)));
      }
    }
    return errors;
  }
}
