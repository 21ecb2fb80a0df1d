import { Request, type CallbackResult } from '../http/request.js';
import type { Response } from '../http/response.js';
import { defaultLogBus, type Logger } from '../log/index.js';
import type { Crawler } from '../core/crawler.js';

/**
 * The base class of spiders. A subclass with a `static name` is a spider;
 * one without is a base class. Arguments given with `-a name=value` are
 * assigned after construction, so fields declared `tag?: string` hold them.
 */
export class Spider {
  /** Settings this spider overrides, read before it is constructed (priority 'spider'). */
  static customSettings?: Record<string, unknown>;

  /** URLs the default `start()` requests, with `parse` as callback. */
  startUrls: string[] = [];
  /** When set, requests to other domains are dropped (offsite). */
  allowedDomains?: string[];
  /** Set by the crawler that runs this spider. */
  crawler?: Crawler;

  constructor(args: Record<string, unknown> = {}) {
    void args; // subclasses may read their arguments here; the crawler assigns them after construction too
  }

  /** The spider's name: its class's `static name`. */
  get name(): string {
    return spiderName(this.constructor as SpiderClass) ?? this.constructor.name;
  }

  /** Logs under the spider's name, into the crawl's log stream. */
  get logger(): Logger {
    return (this.crawler?.logBus ?? defaultLogBus).getLogger(this.name);
  }

  /** The first requests (and items). Default: one Request per `startUrls` entry, not duplicate-filtered, as Scrapy does. */
  async *start(): AsyncIterable<Request | Record<string, unknown>> {
    for (const url of this.startUrls) yield new Request(url, { dontFilter: true });
  }

  /** The default callback. */
  parse(response: Response): CallbackResult {
    throw new Error(`${this.name}.parse callback is not defined: add a parse(response) method or give each Request a callback (got ${response.url})`);
  }
}

export type SpiderClass<S extends Spider = Spider> = (new (args?: Record<string, unknown>) => S) & {
  customSettings?: Record<string, unknown>;
};

/** A class's own `static name = '…'`, or null for base classes (whose `name` is only the built-in function name). */
export function spiderName(cls: unknown): string | null {
  if (typeof cls !== 'function') return null;
  const own = Object.getOwnPropertyDescriptor(cls, 'name');
  // `static name = 'x'` defines an enumerable data property; a class's built-in name is not enumerable.
  return own !== undefined && own.enumerable === true && typeof own.value === 'string' && own.value !== '' ? own.value : null;
}

export function isSpiderClass(value: unknown): value is SpiderClass {
  return typeof value === 'function' && value.prototype instanceof Spider && spiderName(value) !== null;
}
