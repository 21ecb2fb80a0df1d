import type { Crawler } from '../../contracts/crawler.js';
import { IgnoreRequest } from '../../contracts/control-flow.js';
import { isResponse, type Response } from '../../http/response.js';
import type { Request } from '../../http/request.js';
import { SettingsError } from '../../settings/settings-error.js';
import { describeValue } from '../../settings/describe-value.js';
import { UnsupportedSchemeError } from '../download-errors.js';
import type { DownloadHandler, DownloadHandlerClass, DownloadHandlerContext } from './download-handler.js';

type Download = (request: Request) => Promise<Response>;

/** A handler picked by the request rather than its scheme (the browser, for `meta.playwright`). */
export interface RequestChosenHandler {
  wants(request: Request): boolean;
  handler: DownloadHandlerClass;
}

export interface DownloadHandlersOptions {
  /** The handlers DOWNLOAD_HANDLERS_BASE and DOWNLOAD_HANDLERS may name by string. */
  builtIn: ReadonlyMap<string, DownloadHandlerClass>;
  /** Asked first, for every request. */
  chosenByRequest?: RequestChosenHandler;
  signal: AbortSignal;
}

/**
 * Scrapy's DownloadHandlers (core/downloader/handlers/__init__.py): one
 * handler per URL scheme, from DOWNLOAD_HANDLERS_BASE overlaid with
 * DOWNLOAD_HANDLERS (a class, a built-in name, or null to turn the scheme
 * off). Each handler is built on first use (`fromCrawler`), once per class
 * however many schemes name it, and closed when the spider closes. The
 * settings are checked when the crawl starts.
 *
 * A request costs one Map lookup by scheme (the browser's `wants` first,
 * when the crawl has one); the functions looked up are made once per
 * handler, not per request.
 */
export class DownloadHandlers {
  readonly #crawler: Crawler;
  readonly #context: DownloadHandlerContext;
  /** scheme → class, or null for a scheme turned off. */
  readonly #classes = new Map<string, DownloadHandlerClass | null>();
  /** scheme → its handler's download, once built. */
  readonly #ready = new Map<string, Download>();
  readonly #built = new Map<DownloadHandlerClass, { handler: DownloadHandler; download: Download }>();
  readonly #chosen: RequestChosenHandler | null;
  /** seine's own handlers, whose responses carry their request already. */
  readonly #builtIn: ReadonlySet<DownloadHandlerClass>;
  #chosenDownload: Download | undefined;
  readonly #warn: (message: string) => void;

  constructor(crawler: Crawler, options: DownloadHandlersOptions) {
    this.#crawler = crawler;
    this.#context = { signal: options.signal };
    this.#chosen = options.chosenByRequest ?? null;
    this.#builtIn = new Set([...options.builtIn.values(), ...(this.#chosen === null ? [] : [this.#chosen.handler])]);
    this.#warn = (message) => crawler.logBus.getLogger('seine.core.downloader').warning(message);
    for (const [scheme, value] of Object.entries(crawler.settings.getWithBase('DOWNLOAD_HANDLERS'))) {
      this.#classes.set(scheme.toLowerCase(), handlerClass(scheme, value, options.builtIn));
    }
    crawler.signals.connect('spider_closed', () => this.close());
  }

  /** The crawl's one download: the handler of the request's scheme (or the one the request chose). */
  download(request: Request): Promise<Response> {
    if (this.#chosen !== null && this.#chosen.wants(request)) {
      return (this.#chosenDownload ??= this.#build(this.#chosen.handler))(request);
    }
    const url = request.url;
    const ready = this.#ready.get(url.slice(0, url.indexOf(':')));
    return ready !== undefined ? ready(request) : this.#first(request);
  }

  /** Builds the handlers that have something to load before the first request (got, for HTTP/2) and waits for it. */
  async warmUp(): Promise<void> {
    for (const [scheme, cls] of this.#classes) {
      if (cls !== null && typeof cls.prototype.warmUp === 'function') await this.#handlerOf(scheme, cls).warmUp?.();
    }
  }

  /** Closes every handler that was built, once. */
  async close(): Promise<void> {
    const built = [...this.#built.values()];
    this.#built.clear();
    this.#ready.clear();
    this.#chosenDownload = undefined;
    for (const { handler } of built) await handler.close?.();
  }

  /** The first request of a scheme: build its handler, or refuse the scheme. */
  async #first(request: Request): Promise<Response> {
    const url = request.url;
    const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
    const cls = this.#classes.get(scheme);
    if (cls === undefined) throw new UnsupportedSchemeError(url, scheme);
    if (cls === null) {
      const reason = `Unsupported URL scheme '${scheme}': DOWNLOAD_HANDLERS turns it off (${scheme}: null)`;
      this.#warn(`Dropped ${request.toString()}: ${reason}`);
      throw new IgnoreRequest(reason);
    }
    this.#handlerOf(scheme, cls);
    return this.#ready.get(scheme)!(request);
  }

  #handlerOf(scheme: string, cls: DownloadHandlerClass): DownloadHandler {
    this.#build(cls);
    const built = this.#built.get(cls)!;
    this.#ready.set(scheme, built.download);
    return built.handler;
  }

  #build(cls: DownloadHandlerClass): Download {
    let built = this.#built.get(cls);
    if (built === undefined) {
      const handler = cls.fromCrawler !== undefined ? cls.fromCrawler(this.#crawler, this.#context) : new cls();
      const spider = this.#crawler.spider;
      // seine's own handlers attach the request themselves; a user's may return a bare Response, or anything.
      const download: Download = this.#builtIn.has(cls)
        ? (request) => handler.downloadRequest(request, spider)
        : async (request) => attachRequest(cls, await handler.downloadRequest(request, spider), request);
      built = { handler, download };
      this.#built.set(cls, built);
    }
    return built.download;
  }
}

function attachRequest(cls: DownloadHandlerClass, response: unknown, request: Request): Response {
  if (!isResponse(response)) throw new TypeError(`${cls.name}.downloadRequest() gave ${describeValue(response)} for ${request.toString()}, not a Response`);
  return response.request === null ? response.replace({ request }) : response;
}

function handlerClass(scheme: string, value: unknown, builtIn: ReadonlyMap<string, DownloadHandlerClass>): DownloadHandlerClass | null {
  if (value === null) return null;
  if (typeof value === 'string') {
    // Scrapy's import path of a handler seine has built in (scrapy.core.downloader.handlers.http2.H2DownloadHandler) is its name.
    const cls = builtIn.get(value) ?? (value.startsWith('scrapy.') ? builtIn.get(value.slice(value.lastIndexOf('.') + 1)) : undefined);
    if (cls === undefined) {
      throw new SettingsError(`Unknown download handler '${value}' for the '${scheme}' scheme in DOWNLOAD_HANDLERS: use a built-in name (${[...builtIn.keys()].join(', ')}), a class, or null to turn the scheme off`);
    }
    return cls;
  }
  if (typeof value === 'function' && typeof (value as { prototype?: { downloadRequest?: unknown } }).prototype?.downloadRequest === 'function') return value as DownloadHandlerClass;
  throw new SettingsError(
    `DOWNLOAD_HANDLERS['${scheme}'] must be a download handler class (with a downloadRequest(request, spider) method), a built-in name or null, not ${describeValue(value)}`,
  );
}
