import type { LogLevel } from '../log/index.js';
import type { CrawlEvent } from '../contracts/events.js';
import { pythonRepr } from '../python/str-repr.js';
import { CircularReferenceError, itemFieldNames, toExportValue } from '../feeds/export-value.js';

export interface LogLine {
  logger: string;
  level: LogLevel;
  message: string;
}

/** How an item reads in `Scraped from …` and `Dropped: …` lines. */
export function formatItem(item: unknown): string {
  try {
    return JSON.stringify(item) ?? String(item);
  } catch (error) {
    // A circular item: printed as what the feeds say of it (the field path), not as [object Object].
    return circularReferenceOf(item) ?? String(error);
  }
}

/** `circular reference at item.a.b` when converting `item` for a feed finds it contains itself; otherwise null. */
function circularReferenceOf(item: unknown): string | null {
  try {
    for (const field of itemFieldNames(item, false)) toExportValue((item as Record<string, unknown>)[field], field);
  } catch (error) {
    if (error instanceof CircularReferenceError) return error.message;
  }
  return null;
}

function referer(headers: { get(name: string): string | null }): string {
  return headers.get('Referer') ?? 'None';
}

/**
 * The log line an event produces, Scrapy's LogFormatter in seine's words
 * (a pure function of the event, docs/architecture.md), or null for events that are
 * not logged. `Spider opened` and `Spider closed` are written by the crawler
 * itself, because Scrapy places them around other components' lines.
 */
/** ` ['cached']`: flags as Scrapy prints them (a Python list), or nothing when there are none. */
function flagList(flags: readonly string[]): string {
  return flags.length > 0 ? ` [${flags.map(pythonRepr).join(', ')}]` : '';
}

/** The level of the line logLineFor gives for an event, without building it; null when it gives none. */
export function logLevelOf(event: CrawlEvent): LogLevel | null {
  switch (event.type) {
    case 'response_received':
    case 'item_scraped':
      return 'DEBUG';
    case 'item_dropped':
      return 'WARNING';
    case 'download_error':
      if (event.error.name === 'IgnoreRequest') return 'DEBUG';
      return event.request.errback !== null ? null : 'ERROR';
    case 'item_error':
    case 'spider_error':
    case 'engine_error':
      return 'ERROR';
    default:
      return null;
  }
}

export function logLineFor(event: CrawlEvent): LogLine | null {
  switch (event.type) {
    case 'response_received': {
      const { request, response } = event;
      return {
        logger: 'seine.core.engine',
        level: 'DEBUG',
        message: `Crawled (${response.status}) ${request.toString()}${flagList(request.flags)} (referer: ${referer(request.headers)})${flagList(response.flags)}`,
      };
    }
    case 'item_scraped':
      return {
        logger: 'seine.core.scraper',
        level: 'DEBUG',
        message: `Scraped from ${event.response === null ? 'start' : event.response.toString()}\n${formatItem(event.item)}`,
      };
    case 'item_dropped':
      return { logger: 'seine.core.scraper', level: 'WARNING', message: `Dropped: ${event.error.message}\n${formatItem(event.item)}` };
    case 'item_error':
      return {
        logger: 'seine.core.scraper',
        level: 'ERROR',
        message: `Error processing ${formatItem(event.item)}\n${event.error.stack ?? event.error.message}`,
      };
    case 'download_error':
      if (event.error.name === 'IgnoreRequest') return { logger: 'seine.core.scraper', level: 'DEBUG', message: `Ignoring request ${event.request.toString()}: ${event.error.message}` };
      if (event.request.errback !== null) return null;
      return { logger: 'seine.core.scraper', level: 'ERROR', message: `Error downloading ${event.request.toString()}: ${event.error.message}` };
    case 'spider_error': {
      const where = event.response === null ? '' : ` ${event.response.request?.toString() ?? event.response.toString()} (referer: ${event.response.request === null ? 'None' : referer(event.response.request.headers)})`;
      return { logger: 'seine.core.scraper', level: 'ERROR', message: `Spider error processing${where}\n${event.error.stack ?? event.error.message}` };
    }
    case 'engine_error': {
      const where = event.stage === 'start' ? 'Error while obtaining start requests' : `Error in the ${event.stage} stage${event.request === null ? '' : ` for ${event.request.toString()}`}`;
      return { logger: 'seine.core.engine', level: 'ERROR', message: `${where}: ${event.error.message}` };
    }
    default:
      return null;
  }
}
