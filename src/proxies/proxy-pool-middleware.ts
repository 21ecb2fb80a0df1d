import type { DownloaderMiddleware } from '../contracts/components.js';
import { NotConfigured } from '../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { BlockedResponseRule } from '../blocking/blocked-response.js';
import { defaultLogBus, type Logger } from '../log/index.js';
import { ProxyPool, type ProxyOutcome } from './proxy-pool.js';

/** Download failures that say the proxy (or, at an empty tier, the direct route) did not work. */
const PROXY_FAILURE_CODES: ReadonlySet<string> = new Set([
  'SEINE_CONNECTION_REFUSED',
  'SEINE_CONNECTION_LOST',
  'SEINE_DOWNLOAD_TIMEOUT',
  'SEINE_PROXY_TUNNEL_FAILED',
]);

export function isProxyFailure(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && PROXY_FAILURE_CODES.has(code)) return true;
  if (error.name === 'TimeoutError') return true;
  // Chromium's names for a proxy it could not use (browser-rendered requests).
  return /ERR_PROXY_|ERR_TUNNEL_CONNECTION_FAILED|ERR_SOCKS_/.test(error.message);
}

/**
 * Sends each request that has no `meta.proxy` of its own through the crawl's
 * ProxyPool (PROXY_LIST / PROXY_TIERS): sets `meta.proxy` (credentials
 * included; HttpProxyMiddleware at 750 moves them into Proxy-Authorization)
 * and `meta._pool_proxy` (the proxy's id, without credentials). On the way
 * back it credits the outcome to that proxy: a response that is blocked
 * (BlockedResponseRule) bans it, a 407 or a connection failure fails it, and
 * the request is sent again through another proxy, at most once per proxy of
 * the pool (`meta.proxy_retry_times` counts), so that a block page reaches
 * the callback only when no other proxy was left to try. Requests with
 * `meta.session_id` are the session pool's to retry. NotConfigured without a
 * pool, so a crawl without proxies pays nothing.
 */
export class ProxyPoolMiddleware implements DownloaderMiddleware {
  readonly pool: ProxyPool;
  readonly maxRetries: number;
  readonly #rule: Pick<BlockedResponseRule, 'reason'>;
  readonly #stats: StatsCollector | null;
  readonly #logger: Logger;

  constructor(pool: ProxyPool, options: { rule: Pick<BlockedResponseRule, 'reason'>; stats?: StatsCollector; logger?: Logger }) {
    this.pool = pool;
    this.maxRetries = pool.size;
    this.#rule = options.rule;
    this.#stats = options.stats ?? null;
    this.#logger = options.logger ?? defaultLogBus.getLogger('seine.proxies');
  }

  static fromCrawler(crawler: Crawler): ProxyPoolMiddleware {
    const pool = ProxyPool.of(crawler);
    if (pool === null) throw new NotConfigured('neither PROXY_LIST nor PROXY_TIERS is set');
    return new ProxyPoolMiddleware(pool, { rule: BlockedResponseRule.of(crawler), stats: crawler.stats, logger: crawler.logBus.getLogger('seine.proxies') });
  }

  async processRequest(request: Request): Promise<void> {
    const { meta } = request;
    if ('_pool_proxy' in meta) {
      // Set by the session pool (forSession + assign), or kept through a redirect: count it, do not choose again.
      this.pool.noteSent(poolId(meta._pool_proxy), typeof meta._pool_tier === 'number' ? meta._pool_tier : null);
      return;
    }
    if ('proxy' in meta) return;
    const choice = await this.pool.choose(request);
    meta.proxy = choice.url;
    meta._pool_proxy = choice.id;
    if (choice.tier !== null) meta._pool_tier = choice.tier;
    this.pool.noteSent(choice.id, choice.tier);
  }

  async processResponse(request: Request, response: Response): Promise<Request | Response> {
    if (!('_pool_proxy' in request.meta)) return response;
    const reason = response.status === 407 ? 'status 407' : await this.#rule.reason(response);
    const proxy = poolId(request.meta._pool_proxy);
    if (reason === null) {
      this.pool.report(proxy, 'success', request);
      return response;
    }
    const outcome: ProxyOutcome = response.status === 407 ? 'failed' : 'banned';
    this.pool.report(proxy, outcome, request, reason);
    return this.#retry(request, reason) ?? response;
  }

  processException(request: Request, error: Error): Request | null {
    if (!('_pool_proxy' in request.meta) || !isProxyFailure(error)) return null;
    const reason = (error as { code?: unknown }).code ?? error.name;
    this.pool.report(poolId(request.meta._pool_proxy), 'failed', request, String(reason));
    const retry = this.#retry(request, String(reason));
    // Given up: RetryMiddleware may still retry it, and its copy should choose a proxy again rather than keep this one.
    if (retry === null && request.meta.session_id === undefined) forgetProxy(request);
    return retry;
  }

  closeSpider(): void {
    this.pool.close();
  }

  /** The request again, without its proxy, so that processRequest chooses another; null when it may not be retried. */
  #retry(request: Request, reason: string): Request | null {
    const { meta } = request;
    if (meta.session_id !== undefined || meta.dont_retry === true) return null;
    const times = (typeof meta.proxy_retry_times === 'number' ? meta.proxy_retry_times : 0) + 1;
    if (times > this.maxRetries) {
      this.#stats?.inc('proxies/retry_count_exceeded');
      this.#logger.debug(`Gave up retrying ${request.url} through other proxies (failed ${times} times): ${reason}`);
      return null;
    }
    const retry = forgetProxy(request.replace({ dontFilter: true }));
    retry.meta.proxy_retry_times = times;
    this.#stats?.inc('proxies/retry_count');
    this.#logger.debug(`Retrying ${request.url} through another proxy (failed ${times} times): ${reason}`);
    return retry;
  }
}

/** Takes the pool's proxy off a request (and the header HttpProxyMiddleware made of its credentials), so that the pool chooses again. */
function forgetProxy(request: Request): Request {
  for (const key of ['proxy', '_pool_proxy', '_pool_tier', '_auth_proxy', '_scheme_proxy']) delete request.meta[key];
  request.headers.delete('Proxy-Authorization');
  return request;
}

function poolId(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
