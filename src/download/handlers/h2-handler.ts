import type { Crawler } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import type { Logger } from '../../log/index.js';
import type { DownloadHandlerContext } from './download-handler.js';
import { HttpDownloadHandler } from './http-handler.js';

/**
 * Scrapy's H2DownloadHandler, for sites that answer only HTTP/2
 * (`DOWNLOAD_HANDLERS = { https: 'H2DownloadHandler' }`): got with
 * http2-wrapper, which asks the server by ALPN and speaks HTTP/2 when it
 * offers it, HTTP/1.1 otherwise; `response.protocol` says which (`HTTP/2.0`).
 * Everything else is HttpDownloadHandler's (timeouts, sizes, decompression).
 *
 * Through a proxy a request goes as HTTP/1.1 (http2-wrapper connects by
 * itself, not through the proxy's tunnel; Scrapy's handler refuses proxies
 * outright): one WARNING the first time, then silently.
 */
export class H2DownloadHandler extends HttpDownloadHandler {
  readonly #logger: Logger;
  #warnedProxy = false;

  static override fromCrawler(crawler: Crawler, context: DownloadHandlerContext): H2DownloadHandler {
    return new H2DownloadHandler(crawler, context);
  }

  constructor(crawler: Crawler, context: DownloadHandlerContext) {
    super(crawler, context, { http2: true });
    this.#logger = crawler.logBus.getLogger('seine.core.downloader');
  }

  override downloadRequest(request: Request): Promise<Response> {
    const proxy = request.meta.proxy;
    if (!this.#warnedProxy && typeof proxy === 'string' && proxy !== '' && request.url.startsWith('https:')) {
      this.#warnedProxy = true;
      this.#logger.warning(`H2DownloadHandler: ${request.toString()} goes through a proxy, so over HTTP/1.1, not HTTP/2 (the HTTP/2 client cannot tunnel through a proxy); so will every other proxied request of this crawl`);
    }
    return super.downloadRequest(request);
  }
}
