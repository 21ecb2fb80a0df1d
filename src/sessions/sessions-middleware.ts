import type { DownloaderMiddleware } from '../contracts/components.js';
import { IgnoreRequest, NotConfigured } from '../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Logger } from '../log/index.js';
import { BlockedResponseRule } from '../blocking/blocked-response.js';
import { CookiesMiddleware } from '../middlewares/downloader/cookies.js';
import { browserHeaderMaker } from './browser-headers.js';
import { applySessionHeaders, removeSessionHeaders } from './session-headers.js';
import { SessionPool, type RetireReason } from './session-pool.js';
import { sessionProxiesOf, type SessionProxies } from './session-proxies.js';
import { readSessionSettings } from './session-settings.js';
import { SessionStore } from './session-store.js';
import type { Session } from './session.js';

/**
 * What this middleware records on a request it sent (`meta._session`), so
 * that a copy of it (a redirect, a retry) is recognised: `auto` sessions
 * were picked by the pool (a redirect keeps it while it lives), the others
 * pinned by the spider. `jar`, `proxy`, `headers`: what it set itself, and
 * takes off again when the request moves to another session.
 */
interface SessionMark {
  id: string;
  auto: boolean;
  jar: boolean;
  proxy: boolean;
  headers: string[];
  /** The proxy URL it set, when `proxy`. */
  proxyUrl?: unknown;
}

function markOf(request: Request): SessionMark | null {
  const mark = request.meta['_session'];
  return typeof mark === 'object' && mark !== null && typeof (mark as SessionMark).id === 'string' ? (mark as SessionMark) : null;
}

/** `status 403` → `status_403`, `selector .captcha` → `selector`, `isBlocked()` → `isBlocked`: the stat key of a blocked reason. */
function reasonKind(reason: string): string {
  if (reason.startsWith('status ')) return `status_${reason.slice(7)}`;
  if (reason.startsWith('selector ')) return 'selector';
  return reason.replace(/\(\)$/, '');
}

/**
 * SESSIONS_ENABLED: each request is sent within a session of the crawl's
 * SessionPool — its own cookie jar (`meta.cookiejar = <session id>`, the
 * CookiesMiddleware's jars), its proxy (the proxy pool's `forSession`, when
 * PROXY_LIST or PROXY_TIERS is set), its header set (SESSIONS_BROWSER_HEADERS).
 * At 640, before CookiesMiddleware (700) and the proxy middlewares (740,
 * 750) on the way out, after them on the way back. A blocked response
 * (BlockedResponseRule) retires its session and the request is sent again in
 * another, up to SESSIONS_MAX_RETRIES times; the blocked page never reaches
 * the callback. Stats under `sessions/` (docs/blocking.md, "Sessions").
 */
export class SessionsMiddleware implements DownloaderMiddleware {
  readonly pool: SessionPool;
  readonly #maxRetries: number;
  readonly #crawler: Crawler;
  readonly #stats: StatsCollector;
  readonly #logger: Logger;
  readonly #rule: BlockedResponseRule;
  readonly #proxies: SessionProxies | null;
  readonly #store: SessionStore | null;
  #cookies: CookiesMiddleware | null | undefined;

  constructor(crawler: Crawler) {
    const settings = readSessionSettings(crawler.settings);
    this.#crawler = crawler;
    this.#stats = crawler.stats;
    this.#logger = crawler.logBus.getLogger('seine.sessions');
    this.#rule = BlockedResponseRule.of(crawler);
    this.#proxies = sessionProxiesOf(crawler);
    this.#maxRetries = settings.maxRetries;
    this.#store = SessionStore.fromSettings(crawler.settings);
    this.pool = new SessionPool({
      size: settings.poolSize,
      maxUsage: settings.maxUsage,
      newHeaders: settings.browserHeaders ? browserHeaderMaker() : undefined,
      onCreated: () => this.#stats.inc('sessions/created'),
      onRetired: (session, reason) => this.#onRetired(session, reason),
      onDiscarded: (session) => this.#cookieJars()?.dropJar(session.id),
    });
  }

  static fromCrawler(crawler: Crawler): SessionsMiddleware {
    if (!crawler.settings.getBool('SESSIONS_ENABLED')) throw new NotConfigured('SESSIONS_ENABLED is off');
    return new SessionsMiddleware(crawler);
  }

  openSpider(): void {
    if (this.#store === null) return;
    const saved = this.#store.load();
    if (saved === null) return;
    this.pool.restore(saved.pool);
    const jars = this.#cookieJars();
    for (const [id, jar] of Object.entries(saved.cookies)) jars?.importJar(id, jar);
    this.#logger.info(`Resumed ${this.pool.sessions().length} session(s) from ${this.#store.file}`);
  }

  closeSpider(): void {
    if (this.#store === null) return;
    const jars = this.#cookieJars();
    const cookies: Record<string, object> = {};
    for (const session of this.pool.sessions()) {
      const jar = jars?.exportJar(session.id);
      if (jar != null) cookies[session.id] = jar;
    }
    try {
      this.#store.save({ pool: this.pool.record(), cookies });
    } catch (error) {
      this.#logger.error(`Cannot save the sessions to ${this.#store.file}: ${(error as Error).message}`);
    }
  }

  processRequest(request: Request): void {
    const meta = request.meta;
    const mark = markOf(request);
    const sessionId = typeof meta.session_id === 'string' && meta.session_id !== '' ? meta.session_id : null;
    let session: Session;
    let auto: boolean;
    if (sessionId !== null && (mark === null || mark.id !== sessionId || !mark.auto)) {
      session = this.pool.pinned(sessionId);
      auto = false;
    } else {
      // A redirect or retry of a request sent before stays in its session while that lives.
      session = (mark !== null && mark.auto ? this.pool.live(mark.id) : undefined) ?? this.pool.pick();
      auto = true;
    }
    if (mark !== null && mark.id !== session.id) this.#leave(request, mark);
    const jar = meta.cookiejar === undefined || (mark?.jar === true && meta.cookiejar === mark.id);
    if (jar) meta.cookiejar = session.id;
    let proxy = false;
    if (this.#proxies !== null && (meta.proxy === undefined || (mark?.proxy === true && meta.proxy === mark.proxyUrl))) {
      const url = this.#proxies.forSession(session.id, request);
      this.#proxies.assign(request, url);
      session.proxy = url;
      proxy = true;
    }
    const headers = session.headers === null ? [] : applySessionHeaders(request.headers, session.headers, this.#crawler.settings, mark?.headers ?? []);
    meta.session_id = session.id;
    meta['_session'] = { id: session.id, auto, jar, proxy, headers, ...(proxy ? { proxyUrl: meta.proxy } : {}) } satisfies SessionMark;
    this.pool.use(session);
  }

  async processResponse(request: Request, response: Response): Promise<Request | Response> {
    const mark = markOf(request);
    if (mark === null) return response;
    const session = this.pool.known(mark.id);
    if (session !== undefined) this.pool.done(session);
    const reason = await this.#rule.reason(response);
    if (reason === null) return response;
    this.#stats.inc(`sessions/blocked/${reasonKind(reason)}`);
    if (!mark.auto) {
      this.#stats.inc('sessions/gave_up');
      this.#logger.warning(`Gave up ${request.toString()}: its pinned session '${mark.id}' was blocked (${reason})`);
      throw new IgnoreRequest(`pinned session '${mark.id}' blocked (${reason})`);
    }
    if (session !== undefined) this.pool.retire(session, 'blocked');
    const rotations = typeof request.meta.session_rotations === 'number' ? request.meta.session_rotations : 0;
    if (rotations >= this.#maxRetries) {
      this.#stats.inc('sessions/gave_up');
      this.#logger.warning(`Gave up ${request.toString()}: blocked in ${rotations + 1} session(s), SESSIONS_MAX_RETRIES is ${this.#maxRetries} (last: ${reason})`);
      throw new IgnoreRequest(`blocked in ${rotations + 1} sessions (${reason})`);
    }
    this.#stats.inc('sessions/rotated');
    this.#logger.debug(`Retrying ${request.toString()} in another session: session '${mark.id}' was blocked (${reason})`);
    const retry = request.replace({ dontFilter: true });
    this.#leave(retry, mark);
    delete retry.meta.session_id;
    retry.meta.session_rotations = rotations + 1;
    return retry;
  }

  processException(request: Request): void {
    const mark = markOf(request);
    const session = mark === null ? undefined : this.pool.known(mark.id);
    if (session !== undefined) this.pool.done(session);
  }

  /** Takes off what the session `mark` names put on the request (its jar, proxy and headers), before it goes out in another. */
  #leave(request: Request, mark: SessionMark): void {
    const meta = request.meta;
    if (mark.jar && meta.cookiejar === mark.id) delete meta.cookiejar;
    if (mark.proxy) {
      // With the proxy go HttpProxyMiddleware's records of it (its Proxy-Authorization is for that proxy only).
      for (const key of ['proxy', '_pool_proxy', '_pool_tier', '_auth_proxy', '_scheme_proxy']) delete meta[key];
      request.headers.delete('Proxy-Authorization');
    }
    removeSessionHeaders(request.headers, mark.headers);
    delete meta['_session'];
  }

  #onRetired(session: Session, reason: RetireReason): void {
    this.#stats.inc('sessions/retired');
    this.#stats.inc(`sessions/retired/${reason}`);
    this.#proxies?.releaseSession(session.id);
  }

  /** The CookiesMiddleware's jars, looked up on first use (it is built after this middleware); null with COOKIES_ENABLED off. */
  #cookieJars(): CookiesMiddleware | null {
    if (this.#cookies === undefined) this.#cookies = CookiesMiddleware.of(this.#crawler);
    return this.#cookies;
  }
}
