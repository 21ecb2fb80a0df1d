import type { Crawler } from '../contracts/crawler.js';
import type { Request } from '../http/request.js';
import { ProxyPool } from '../proxies/proxy-pool.js';

/** What sessions ask of the proxy pool (src/proxies/): a proxy per session, put on the request, forgotten when the session retires. */
export interface SessionProxies {
  forSession(sessionId: string, request: Request): string | null;
  assign(request: Request, url: string | null): void;
  releaseSession(sessionId: string): void;
}

/** The crawl's proxy pool, or null without PROXY_LIST / PROXY_TIERS (then sessions go out without a proxy). */
export function sessionProxiesOf(crawler: Pick<Crawler, 'settings' | 'stats' | 'logBus'>): SessionProxies | null {
  return ProxyPool.of(crawler);
}
