import { tmpdir } from 'node:os';
import type { Crawler } from '../../contracts/crawler.js';
import { lazyModule } from '../../errors/lazy-package.js';
import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import type { Logger } from '../../log/index.js';
import type { FetchOptions, WarnSizeStage } from '../fetch-contract.js';
import { createNodeFetch } from '../fetch-node.js';
import { httpFetchOptionsFromSettings, type HttpFetch, type HttpFetchOptions } from '../fetch-options.js';
import type { DownloadHandler, DownloadHandlerContext } from './download-handler.js';

/** Scrapy's warnings (its HTTP/1.1 handler; the decompressed one as HttpCompressionMiddleware >= 2.11 words it), with the size. */
function warnSizeMessage(stage: WarnSizeStage, size: number, warnSize: number, request: string): string {
  if (stage === 'expected') return `Expected response size (${size}) larger than download warn size (${warnSize}) in request ${request}.`;
  if (stage === 'received') return `Received more bytes than download warn size (${warnSize}) in request ${request} (${size} bytes).`;
  return `Decompressed response size (${size}) larger than download warn size (${warnSize}) in request ${request}.`;
}

/**
 * got, for HTTP/2 only (H2DownloadHandler): it and its dependencies take
 * ~110 ms and ~10–30 MB to load, which a crawl over HTTP/1.1 never pays, and
 * which an HTTP/2 crawl pays while its first request is on its way anyway
 * (warmUp). When got cannot be loaded (a cut-short install), every HTTP/2
 * download rejects with one DependencyMissingError, which stops the crawl
 * (src/engine/engine-state.ts).
 */
const gotFetchModule = lazyModule('got', 'downloading over HTTP/2 (H2DownloadHandler)', () => import('../fetch-got.js'));

/**
 * The `http` and `https` schemes, over HTTP/1.1 with node:http
 * (src/download/fetch-node.ts; got only for H2DownloadHandler's HTTP/2),
 * with DOWNLOAD_TIMEOUT, DOWNLOAD_MAXSIZE, DOWNLOAD_WARNSIZE and their
 * `meta` overrides, and `meta.proxy`. One instance serves both schemes.
 */
export class HttpDownloadHandler implements DownloadHandler {
  readonly #options: HttpFetchOptions;
  readonly #signal: AbortSignal;
  readonly #timeoutMs: number;
  readonly #maxSize: number;
  readonly #warnSize: number;
  readonly #logger: Logger;
  readonly #bodyDir: string;
  #fetch: HttpFetch | undefined;
  #loading: Promise<HttpFetch> | undefined;

  static fromCrawler(crawler: Crawler, context: DownloadHandlerContext): HttpDownloadHandler {
    return new HttpDownloadHandler(crawler, context);
  }

  /** `client`: options laid over the settings' (H2DownloadHandler's `http2`). */
  constructor(crawler: Crawler, { signal }: DownloadHandlerContext, client: Partial<HttpFetchOptions> = {}) {
    const settings = crawler.settings;
    this.#options = { ...httpFetchOptionsFromSettings(settings), ...client };
    this.#signal = signal;
    this.#timeoutMs = settings.getFloat('DOWNLOAD_TIMEOUT') * 1000;
    this.#maxSize = settings.getInt('DOWNLOAD_MAXSIZE');
    this.#warnSize = settings.getInt('DOWNLOAD_WARNSIZE');
    this.#logger = crawler.logBus.getLogger('seine.core.downloader');
    // Where media bodies are streamed (meta.body_to_file): FEED_TEMPDIR, as every temporary file seine writes, else the system's.
    const tempDir = settings.get('FEED_TEMPDIR');
    this.#bodyDir = typeof tempDir === 'string' && tempDir !== '' ? tempDir : tmpdir();
  }

  downloadRequest(request: Request): Promise<Response> {
    const fetch = this.#fetch;
    return fetch !== undefined ? fetch(request, this.#fetchOptions(request)) : this.#load().then((ready) => ready(request, this.#fetchOptions(request)));
  }

  // The engine waits for this before the first request leaves (src/engine/throttle.ts), so that loading got (HTTP/2) is
  // not counted in the first download's time, nor taken off the DOWNLOAD_DELAY between the first two requests.
  async warmUp(): Promise<void> {
    await this.#load();
  }

  close(): void {
    this.#fetch?.close();
  }

  #load(): Promise<HttpFetch> {
    if (this.#options.http2 !== true) return (this.#loading ??= Promise.resolve((this.#fetch = createNodeFetch(this.#options))));
    return (this.#loading ??= gotFetchModule().then((module) => (this.#fetch = module.createGotFetch(this.#options))));
  }

  #fetchOptions(request: Request): FetchOptions {
    const meta = request.meta;
    const warnSize = typeof meta['download_warnsize'] === 'number' ? meta['download_warnsize'] : this.#warnSize;
    return {
      signal: this.#signal,
      timeoutMs: typeof meta['download_timeout'] === 'number' ? meta['download_timeout'] * 1000 : this.#timeoutMs,
      maxSize: typeof meta['download_maxsize'] === 'number' ? meta['download_maxsize'] : this.#maxSize,
      warnSize,
      onWarnSize: (size, stage) => this.#logger.warning(warnSizeMessage(stage, size, warnSize, request.toString())),
      proxy: typeof meta['proxy'] === 'string' ? meta['proxy'] : null,
      bodyDir: meta.body_to_file === true ? this.#bodyDir : null,
    };
  }
}
