import type { DownloaderMiddleware } from '../../contracts/components.js';
import { NotConfigured } from '../../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { defaultLogBus, type Logger } from '../../log/index.js';
import { DEFAULT_SETTINGS } from '../../settings/index.js';
import type { Spider } from '../../contracts/spider.js';
import type { ComponentOptions } from '../spider/component-options.js';
import { getMetaRefresh } from './meta-refresh-tag.js';
import { detectEncoding } from '../../http/decode-body.js';
import { decodeText } from '../../http/text-decoding.js';
import { REDIRECT_LOGGER, buildRedirectRequest, checkRedirectLoop, followRedirect, type RedirectPolicy } from './redirect-request.js';

export interface MetaRefreshOptions extends ComponentOptions {
  /** REDIRECT_MAX_TIMES, shared with RedirectMiddleware. Default 20. */
  maxRedirectTimes?: number;
  /** REDIRECT_PRIORITY_ADJUST. Default 2. */
  priorityAdjust?: number;
  /** METAREFRESH_MAXDELAY: refreshes this many seconds away or later are not followed. Default 100. */
  maxDelay?: number;
  /** METAREFRESH_IGNORE_TAGS: elements whose content is not searched (e.g. ['script', 'noscript']). Default none. */
  ignoreTags?: readonly string[];
}

/** How much of the page is searched, as Scrapy: a refresh belongs in the head. */
const SEARCHED_CHARS = 4096;
/** No encoding spends more than 4 bytes on a UTF-16 code unit, so this many bytes hold the first SEARCHED_CHARS characters. */
const SEARCHED_BYTES = SEARCHED_CHARS * 4;

/**
 * The first SEARCHED_CHARS characters, decoded from the first bytes only:
 * decoding the whole body (`response.text`) would cost a full copy of a
 * large page here, and fail outright on a body longer than V8's longest
 * string (a decompression bomb under the default DOWNLOAD_MAXSIZE).
 */
function searchedText(response: Response): string {
  if (response.body.length <= SEARCHED_BYTES) return response.text.slice(0, SEARCHED_CHARS);
  const bom = detectEncoding(response.body, response.headers.get('content-type')).bomLength;
  return decodeText(response.body.subarray(bom, bom + SEARCHED_BYTES), response.encoding).slice(0, SEARCHED_CHARS);
}

/**
 * Follows `<meta http-equiv="refresh" content="0;url=…">` in HTML responses
 * (Scrapy's MetaRefreshMiddleware) with a GET, when the delay is below
 * METAREFRESH_MAXDELAY; counts against REDIRECT_MAX_TIMES like an HTTP
 * redirect, with reason `meta refresh`. HEAD requests and
 * `meta.dont_redirect` are left alone. METAREFRESH_ENABLED=false switches it off.
 */
export class MetaRefreshMiddleware implements DownloaderMiddleware, RedirectPolicy {
  readonly maxRedirectTimes: number;
  readonly priorityAdjust: number;
  readonly maxDelay: number;
  readonly ignoreTags: readonly string[];
  /** Where `redirect/loop` is counted (shared with RedirectMiddleware). */
  readonly stats: StatsCollector | undefined;
  readonly #logger: Logger;

  constructor(options: MetaRefreshOptions = {}) {
    this.maxRedirectTimes = options.maxRedirectTimes ?? DEFAULT_SETTINGS.REDIRECT_MAX_TIMES;
    this.priorityAdjust = options.priorityAdjust ?? DEFAULT_SETTINGS.REDIRECT_PRIORITY_ADJUST;
    this.maxDelay = options.maxDelay ?? DEFAULT_SETTINGS.METAREFRESH_MAXDELAY;
    this.ignoreTags = [...(options.ignoreTags ?? DEFAULT_SETTINGS.METAREFRESH_IGNORE_TAGS)];
    this.stats = options.stats;
    this.#logger = (options.logBus ?? defaultLogBus).getLogger(REDIRECT_LOGGER);
  }

  static fromCrawler(crawler: Crawler): MetaRefreshMiddleware {
    const { settings } = crawler;
    if (!settings.getBool('METAREFRESH_ENABLED')) throw new NotConfigured('METAREFRESH_ENABLED is off');
    return new MetaRefreshMiddleware({
      maxRedirectTimes: settings.getInt('REDIRECT_MAX_TIMES'),
      priorityAdjust: settings.getInt('REDIRECT_PRIORITY_ADJUST'),
      maxDelay: settings.getFloat('METAREFRESH_MAXDELAY'),
      ignoreTags: settings.getList('METAREFRESH_IGNORE_TAGS').map(String),
      logBus: crawler.logBus,
      stats: crawler.stats,
    });
  }

  processResponse(request: Request, response: Response, spider: Spider): Request | Response {
    if (request.meta.dont_redirect || request.method === 'HEAD' || response.kind !== 'html') return response;
    const refresh = getMetaRefresh(searchedText(response), response.url, this.ignoreTags);
    if (refresh === null || !(refresh.interval < this.maxDelay)) return response;
    // As for Location headers, only http(s) targets are followed (a refresh to javascript: or file: is not).
    if (!/^https?:/.test(refresh.url)) return response;
    const redirected = buildRedirectRequest(request, refresh.url, true);
    // A page that refreshes to itself (or back along its chain): one WARNING and redirect/loop, as for HTTP redirects.
    const setsCookie = response.headers.has('Set-Cookie');
    const cookieWall = checkRedirectLoop(redirected, request, this, this.#logger, spider, setsCookie);
    return followRedirect(redirected, request, 'meta refresh', this, this.#logger, spider, { cookieWall, setsCookie });
  }
}
