/**
 * Control flow, not failure (STYLE.md §8): these are thrown by components
 * and become events and stats; they never error a crawl's streams.
 */

/** A downloader middleware or stage drops a request (logged at DEBUG, counted). */
export class IgnoreRequest extends Error {
  constructor(message = 'Request ignored') {
    super(message);
    this.name = 'IgnoreRequest';
  }
}

/** An item pipeline drops an item: `Dropped: <message>` at WARNING, `item_dropped_count` in stats. */
export class DropItem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DropItem';
  }
}

/** A callback asks to close the spider with `reason`. */
export class CloseSpider extends Error {
  readonly reason: string;
  constructor(reason = 'cancelled') {
    super(`Closing spider: ${reason}`);
    this.name = 'CloseSpider';
    this.reason = reason;
  }
}

/** Thrown by a component's fromCrawler() to switch itself off for this crawl. */
export class NotConfigured extends Error {
  constructor(message = 'not configured') {
    super(message);
    this.name = 'NotConfigured';
  }
}
