import type { DropReason } from './events.js';

/**
 * Control flow, not failure: these are thrown by components
 * and become events and stats; they never error a crawl's streams.
 */

/**
 * A downloader middleware or stage drops a request (logged at DEBUG,
 * counted; a `request_dropped` event with `dropReason`, default `ignored`).
 */
export class IgnoreRequest extends Error {
  readonly dropReason: DropReason;
  constructor(message = 'Request ignored', options: { dropReason?: DropReason } = {}) {
    super(message);
    this.name = 'IgnoreRequest';
    this.dropReason = options.dropReason ?? 'ignored';
  }
}

/** An item pipeline drops an item: `Dropped: <message>` at WARNING, `item_dropped_count` in stats. */
export class DropItem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DropItem';
  }
}

/**
 * Closes the crawl with `reason` (its `finish_reason`), thrown from a
 * callback, an errback, `start()`, an item pipeline, a middleware or a
 * `spider_idle` handler.
 */
export class CloseSpider extends Error {
  readonly reason: string;
  constructor(reason = 'cancelled') {
    super(`Closing spider: ${reason}`);
    this.name = 'CloseSpider';
    this.reason = reason;
  }
}

/** Thrown by a `spider_idle` handler: the idle crawl stays open (requests added meanwhile are crawled). */
export class DontCloseSpider extends Error {
  constructor(message = 'Spider kept open') {
    super(message);
    this.name = 'DontCloseSpider';
  }
}

// By name as well as by class: a project may load its own copy of seine, whose classes differ.
export function isCloseSpider(error: unknown): error is CloseSpider {
  return error instanceof CloseSpider || (error instanceof Error && error.name === 'CloseSpider' && typeof (error as { reason?: unknown }).reason === 'string');
}

export function isDontCloseSpider(error: unknown): error is DontCloseSpider {
  return error instanceof DontCloseSpider || (error instanceof Error && error.name === 'DontCloseSpider');
}

export function isIgnoreRequest(error: unknown): error is IgnoreRequest {
  return error instanceof IgnoreRequest || (error instanceof Error && error.name === 'IgnoreRequest');
}

/** Thrown by a component's fromCrawler() to switch itself off for this crawl. */
export class NotConfigured extends Error {
  constructor(message = 'not configured') {
    super(message);
    this.name = 'NotConfigured';
  }
}

/**
 * Not raised by components to steer the crawl, but treated as such by the
 * engine: a package seine loads on first use could not be loaded, so every
 * request would fail the same way, and the crawl stops (EngineState.failOn).
 */
export { isDependencyMissing } from '../errors/dependency-missing-error.js';
