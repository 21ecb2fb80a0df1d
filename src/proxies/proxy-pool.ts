import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { Request } from '../http/request.js';
import { defaultLogBus, type Logger, type LogBus } from '../log/index.js';
import { DomainTiers } from './domain-tiers.js';
import { ProxyEntry, parsePoolProxy } from './proxy-entry.js';
import { proxyPoolSettings, type ProxyRotation } from './proxy-settings.js';

/** What became of a request sent through a pool proxy. */
export type ProxyOutcome = 'success' | 'failed' | 'banned';

/** Where the pool sends a request: a proxy (`url` with credentials, for `meta.proxy`; `id` without), or no proxy at all (an empty tier). */
export interface ProxyChoice {
  url: string | null;
  id: string | null;
  /** The PROXY_TIERS tier, or null under PROXY_LIST. */
  tier: number | null;
}

export interface ProxyPoolOptions {
  /** PROXY_LIST: proxy URLs, credentials included. Give this or `tiers`. */
  list?: readonly string[];
  /** PROXY_TIERS: tiers of proxy URLs, cheapest first; an empty tier means no proxy. */
  tiers?: readonly (readonly string[])[];
  rotation?: ProxyRotation;
  /** PROXY_BACKOFF_BASE and PROXY_BACKOFF_CAP, in seconds. */
  backoffBase?: number;
  backoffCap?: number;
  /** Successes in a row at a tier above 0 before a domain tries the tier below. Default 10. */
  stepDownAfter?: number;
  stats?: StatsCollector;
  logBus?: LogBus;
  /** For tests: the clock, in epoch ms. */
  now?: () => number;
}

/** Successes in a row before a domain steps down one tier (docs/blocking.md, "Proxies"). */
export const TIER_STEP_DOWN_AFTER = 10;

const pools = new WeakMap<object, ProxyPool | null>();

/**
 * The crawl's proxies (PROXY_LIST or PROXY_TIERS) and their health. A proxy
 * that fails or is banned rests PROXY_BACKOFF_BASE seconds, twice as long
 * for each further failure in a row, at most PROXY_BACKOFF_CAP; a success
 * wakes it and clears the count. ProxyPoolMiddleware asks `choose()` for
 * each request and reports outcomes.
 *
 * For the session pool (PROXY_ROTATION = 'per-session'):
 * - `forSession(sessionId, request)` gives a session its proxy URL (with
 *   credentials), the same one for the session's life while it is awake,
 *   another when it rests; null means no proxy (an empty tier).
 * - `assign(request, url)` puts it on the request: `meta.proxy = url` and
 *   `meta._pool_proxy = pool.idOf(url)` (no credentials), which is what
 *   ProxyPoolMiddleware credits the outcome to (requests, failures, bans and
 *   tiers; it leaves retrying a request with `meta.session_id` to the sessions).
 * - `report(proxy, outcome, request?)` records an outcome yourself (proxy: the
 *   URL or its id), e.g. for a response your own rule finds blocked.
 * - `releaseSession(sessionId)` forgets a retired session's proxy.
 */
export class ProxyPool {
  readonly rotation: ProxyRotation;
  /** The tiers (PROXY_LIST is one tier); `[]` entries are "no proxy". */
  readonly tiers: readonly (readonly ProxyEntry[])[];
  readonly tiered: boolean;
  readonly backoffBaseMs: number;
  readonly backoffCapMs: number;
  readonly #entries = new Map<string, ProxyEntry>();
  readonly #byUrl = new Map<string, ProxyEntry>();
  readonly #cursors: number[];
  readonly #byDomain = new Map<string, ProxyEntry>();
  readonly #bySession = new Map<string, ProxyEntry>();
  readonly #domainTiers: DomainTiers;
  readonly #stats: StatsCollector | null;
  readonly #logger: Logger;
  readonly #now: () => number;
  #warned = false;
  #wake: { at: number; promise: Promise<void>; timer: NodeJS.Timeout } | null = null;
  #closed = false;

  constructor(options: ProxyPoolOptions) {
    this.rotation = options.rotation ?? 'round-robin';
    this.tiered = options.tiers !== undefined;
    const urlTiers = options.tiers ?? [options.list ?? []];
    this.backoffBaseMs = (options.backoffBase ?? 30) * 1000;
    this.backoffCapMs = (options.backoffCap ?? 600) * 1000;
    this.#stats = options.stats ?? null;
    this.#logger = (options.logBus ?? defaultLogBus).getLogger('seine.proxies');
    this.#now = options.now ?? Date.now;
    const parsed = urlTiers.map((tier) => tier.map((url) => parseForPool(url)));
    const seen = new Map<string, number>();
    for (const tier of parsed) for (const proxy of tier) seen.set(proxy.base, (seen.get(proxy.base) ?? 0) + 1);
    const serial = new Map<string, number>();
    this.tiers = parsed.map((tier) => tier.map((proxy) => {
      let entry = this.#byUrl.get(proxy.url);
      if (entry !== undefined) return entry;
      const n = (serial.get(proxy.base) ?? 0) + 1;
      serial.set(proxy.base, n);
      entry = new ProxyEntry(proxy.url, (seen.get(proxy.base) ?? 0) > 1 ? `${proxy.base}#${n}` : proxy.base, proxy.label);
      this.#byUrl.set(proxy.url, entry);
      this.#entries.set(entry.id, entry);
      return entry;
    }));
    this.#cursors = this.tiers.map(() => 0);
    this.#domainTiers = new DomainTiers(this.tiers.length, options.stepDownAfter ?? TIER_STEP_DOWN_AFTER);
  }

  /** The crawl's pool, built on first use from PROXY_* settings; null when neither PROXY_LIST nor PROXY_TIERS is set. */
  static of(crawler: Pick<Crawler, 'settings' | 'stats' | 'logBus'>): ProxyPool | null {
    let pool = pools.get(crawler);
    if (pool === undefined) {
      const options = proxyPoolSettings(crawler.settings);
      pool = options === null ? null : new ProxyPool({ ...options, stats: crawler.stats, logBus: crawler.logBus });
      pools.set(crawler, pool);
    }
    return pool;
  }

  /** How many proxies the pool has (an empty tier counts as one: going direct). */
  get size(): number {
    return this.tiers.reduce((sum, tier) => sum + Math.max(tier.length, 1), 0);
  }

  /** The id (`scheme://host:port`, no credentials) of a pool URL or id; null when it is not the pool's. */
  idOf(proxy: string): string | null {
    return (this.#byUrl.get(proxy) ?? this.#entries.get(proxy))?.id ?? null;
  }

  /**
   * The proxy for `request` by PROXY_ROTATION (and, with tiers, its domain's
   * tier). When every candidate rests, waits for the first to wake: the
   * request is held, not dropped.
   */
  async choose(request: Request): Promise<ProxyChoice> {
    const domain = domainOf(request.url);
    for (;;) {
      const now = this.#now();
      const choice = this.tiered ? this.#chooseTier(domain, now) : this.#chooseInList(domain, now);
      if (choice !== null) {
        this.#warned = false;
        return choice;
      }
      const waiting = this.tiered ? this.tiers.slice(this.#domainTiers.tierOf(domain)).flat() : this.tiers[0]!;
      if (this.#closed) {
        const first = earliest(waiting);
        return { url: first.url, id: first.id, tier: this.tiered ? this.#tierOfEntry(first) : null };
      }
      await this.#waitForWake(waiting, now);
    }
  }

  #chooseInList(domain: string, now: number): ProxyChoice | null {
    let entry: ProxyEntry | null;
    if (this.rotation === 'per-domain') {
      const sticky = this.#byDomain.get(domain);
      entry = sticky !== undefined && !sticky.isResting(now) ? sticky : this.#next(0, now);
      if (entry !== null) this.#byDomain.set(domain, entry);
    } else {
      entry = this.#next(0, now);
    }
    return entry === null ? null : { url: entry.url, id: entry.id, tier: null };
  }

  /**
   * The domain's tier; when all of its proxies rest, the next tier up that
   * has one awake (the domain's tier stays: outcomes there are not counted
   * for it), so a resting tier does not hold a domain's requests while a
   * dearer tier could carry them.
   */
  #chooseTier(domain: string, now: number): ProxyChoice | null {
    for (let tier = this.#domainTiers.tierOf(domain); tier < this.tiers.length; tier++) {
      if (this.tiers[tier]!.length === 0) return { url: null, id: null, tier };
      const entry = this.#next(tier, now);
      if (entry !== null) return { url: entry.url, id: entry.id, tier };
    }
    return null;
  }

  #tierOfEntry(entry: ProxyEntry): number {
    return this.tiers.findIndex((tier) => tier.includes(entry));
  }

  /** The session's proxy URL (credentials included), sticky while it is awake; null for an empty tier. Never waits: when all rest, the first to wake. */
  forSession(sessionId: string, request: Request): string | null {
    const domain = domainOf(request.url);
    const now = this.#now();
    const sticky = this.#bySession.get(sessionId);
    const stickyTier = sticky === undefined ? -1 : this.#tierOfEntry(sticky);
    if (sticky !== undefined && !sticky.isResting(now) && (!this.tiered || stickyTier === this.#domainTiers.tierOf(domain))) return sticky.url;
    const choice = this.tiered ? this.#chooseTier(domain, now) : this.#chooseInList(`session ${sessionId}`, now);
    if (choice !== null && choice.url === null) {
      this.#bySession.delete(sessionId);
      return null;
    }
    const waiting = this.tiered ? this.tiers.slice(this.#domainTiers.tierOf(domain)).flat() : this.tiers[0]!;
    const entry = choice === null ? earliest(waiting) : this.#byUrl.get(choice.url!)!;
    this.#bySession.set(sessionId, entry);
    return entry.url;
  }

  releaseSession(sessionId: string): void {
    this.#bySession.delete(sessionId);
  }

  /** Sets `meta.proxy` and `meta._pool_proxy` (and, with tiers, `meta._pool_tier`) for a URL from `forSession()`. */
  assign(request: Request, url: string | null): void {
    const entry = url === null ? undefined : (this.#byUrl.get(url) ?? this.#entries.get(url));
    request.meta.proxy = entry?.url ?? url;
    request.meta._pool_proxy = entry?.id ?? null;
    if (this.tiered) request.meta._pool_tier = entry === undefined ? this.#domainTiers.tierOf(domainOf(request.url)) : this.#tierOfEntry(entry);
  }

  /** Counts a request sent through `id` (null: no proxy) at `tier`. */
  noteSent(id: string | null, tier: number | null): void {
    const entry = id === null ? undefined : this.#entries.get(id);
    if (entry !== undefined) this.#stats?.inc(`proxies/${entry.label}/requests`);
    if (tier !== null) this.#stats?.inc(`proxies/tier/${tier}/requests`);
  }

  /**
   * Records what became of a request sent through `proxy` (a pool URL or id;
   * null: no proxy). With `request`, a PROXY_TIERS pool also moves the
   * request's domain between tiers (by `meta._pool_tier`).
   */
  report(proxy: string | null, outcome: ProxyOutcome, request?: Request, reason?: string): void {
    const entry = proxy === null ? undefined : (this.#byUrl.get(proxy) ?? this.#entries.get(proxy));
    const now = this.#now();
    if (entry !== undefined) {
      if (outcome === 'success') {
        entry.failuresInRow = 0;
        entry.restUntil = 0;
      } else {
        this.#stats?.inc(`proxies/${entry.label}/${outcome}`);
        // Failures of requests already in flight when it was rested do not lengthen the rest.
        if (!entry.isResting(now)) this.#rest(entry, now, reason ?? outcome);
      }
    }
    const tier = request?.meta._pool_tier;
    if (this.tiered && request !== undefined && typeof tier === 'number') {
      const domain = domainOf(request.url);
      const before = this.#domainTiers.tierOf(domain);
      const after = this.#domainTiers.record(domain, tier, outcome === 'success');
      if (after !== before) {
        const why = outcome === 'success' ? `${this.#domainTiers.stepDownAfter} successes in a row` : (reason ?? outcome);
        this.#logger.info(`Proxy tier for ${domain}: ${before} -> ${after} (${why})`, { domain, from: before, to: after });
      }
    }
  }

  /** Stops waiting: held requests go out through the proxy that wakes first. */
  close(): void {
    this.#closed = true;
    if (this.#wake !== null) {
      clearTimeout(this.#wake.timer);
      this.#wake = null;
    }
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  readonly #waiters: (() => void)[] = [];

  #rest(entry: ProxyEntry, now: number, reason: string): void {
    entry.failuresInRow += 1;
    const ms = Math.min(this.backoffBaseMs * 2 ** (entry.failuresInRow - 1), this.backoffCapMs);
    entry.restUntil = now + ms;
    this.#stats?.inc(`proxies/${entry.label}/rested`);
    this.#logger.info(`Proxy ${entry.label} rests ${seconds(ms)}s (${reason}; ${entry.failuresInRow} in a row)`, { proxy: entry.label });
  }

  /** The next awake proxy of `tier` in turn, or null when all rest. */
  #next(tier: number, now: number): ProxyEntry | null {
    const candidates = this.tiers[tier]!;
    for (let i = 0; i < candidates.length; i++) {
      const index = (this.#cursors[tier]! + i) % candidates.length;
      const entry = candidates[index]!;
      if (!entry.isResting(now)) {
        this.#cursors[tier] = (index + 1) % candidates.length;
        return entry;
      }
    }
    return null;
  }

  /** One timer for every held request: all wake together when the first proxy does. */
  #waitForWake(candidates: readonly ProxyEntry[], now: number): Promise<void> {
    const at = earliest(candidates).restUntil;
    if (!this.#warned) {
      this.#warned = true;
      this.#logger.warning(`all ${candidates.length} proxies are resting; next back in ${seconds(at - now)}s`);
    }
    if (this.#wake === null || this.#wake.at > at) {
      if (this.#wake !== null) clearTimeout(this.#wake.timer);
      let release!: () => void;
      const promise = new Promise<void>((resolve) => {
        release = resolve;
      });
      this.#waiters.push(release);
      const timer = setTimeout(() => {
        this.#wake = null;
        for (const resolve of this.#waiters.splice(0)) resolve();
      }, Math.max(at - now, 1));
      this.#wake = { at, promise, timer };
    }
    return this.#wake.promise;
  }
}

/** Checked by proxyPoolSettings already when built from settings; a direct constructor call is checked here. */
function parseForPool(url: string): { url: string; base: string; label: string } {
  return parsePoolProxy(url, 'PROXY_LIST');
}

function earliest(entries: readonly ProxyEntry[]): ProxyEntry {
  return entries.reduce((a, b) => (b.restUntil < a.restUntil ? b : a));
}

function domainOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

function seconds(ms: number): string {
  return (Math.round(ms / 100) / 10).toString();
}
