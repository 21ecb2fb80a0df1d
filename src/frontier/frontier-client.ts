import { lazyPackage } from '../errors/lazy-package.js';
import type { Redis } from 'ioredis';
import type { FrontierLink } from './frontier-link.js';

/** ioredis (CommonJS), loaded by the first client: a crawl without Redis never pays its ~55 ms and its memory. */
const loadIoredis = lazyPackage<typeof import('ioredis')>('ioredis', 'a Redis frontier');
import { ACK, CLAIM_START, LEASE, PAUSE_SLOT, PUSH, RECORD_START, RELEASE, RENEW, STATUS } from './lua-scripts.js';

/** What a LEASE reply says about the whole crawl, besides the requests it leased. */
export interface FrontierCounts {
  /** Requests waiting in the queue (all slots). */
  readonly queued: number;
  /** Requests leased to workers (this one included) and not acknowledged. */
  readonly leases: number;
  /** '' (nobody has run start() yet), 'seeding' or 'done'. */
  readonly startState: string;
  /** True while a live worker is running start(). */
  readonly startAlive: boolean;
  readonly paused: boolean;
  /** Milliseconds until the next slot may be leased from (-1: no slot has requests). */
  readonly nextReadyMs: number;
}

export interface LeasedRequest {
  readonly id: string;
  readonly json: string;
}

export interface PushEntry {
  readonly fingerprint: string;
  readonly slot: string;
  readonly priority: number;
  readonly json: string;
  readonly dontFilter: boolean;
  /** Bloom bit offsets, or '' with the set filter. */
  readonly bloomBits: string;
}

export interface FrontierStatus {
  readonly meta: Readonly<Record<string, string>>;
  readonly leases: number;
  readonly seen: number;
  readonly items: number;
  readonly workersAlive: readonly string[];
  /** Each worker's last stats snapshot. */
  readonly stats: Readonly<Record<string, Record<string, unknown>>>;
}

type Script = (...args: Array<string | number>) => Promise<unknown>;
type ScriptCommands = Record<'seinePush' | 'seineLease' | 'seineAck' | 'seineRenew' | 'seineRelease' | 'seineClaimStart' | 'seineRecordStart' | 'seineStatus' | 'seinePauseSlot', Script>;

export interface FrontierClientOptions {
  /** Called on each lost connection (once per outage) and when it is back. */
  readonly onConnectionLost?: (reason: string) => void;
  readonly onReconnected?: () => void;
}

/**
 * One worker's connection to a crawl's frontier: the Lua scripts as typed
 * calls. Every call goes through one connection, so Redis runs them in the
 * order they were made (a request's children are queued before its
 * acknowledgement). While Redis is unreachable calls wait in the client's
 * queue and are sent when it is back (ioredis reconnects on its own); the
 * scripts are written so that running one twice changes nothing more.
 */
export class FrontierClient implements FrontierLink {
  readonly redis: Redis;
  readonly #scripts: ScriptCommands;
  #lost = false;
  #lastError = '';

  constructor(
    readonly url: string,
    readonly prefix: string,
    options: FrontierClientOptions = {},
  ) {
    const { Redis: RedisClient } = loadIoredis();
    this.redis = new RedisClient(url, {
      lazyConnect: true,
      // Wait for Redis however long it is away: the work a call carries is not given up.
      maxRetriesPerRequest: null,
      enableAutoPipelining: true,
      retryStrategy: (times) => Math.min(50 * times, 1000),
    });
    // Without a listener ioredis prints every connection error to the console.
    this.redis.on('error', (error: Error) => {
      this.#lastError = connectionErrorText(error);
      if (!this.#lost && this.redis.status !== 'connecting' && this.redis.status !== 'wait') {
        this.#lost = true;
        options.onConnectionLost?.(this.#lastError);
      }
    });
    this.redis.on('close', () => {
      if (this.#lost || this.redis.status === 'end') return;
      if (this.#everReady) {
        this.#lost = true;
        options.onConnectionLost?.(this.#lastError || 'the connection closed');
      }
    });
    this.redis.on('ready', () => {
      const wasLost = this.#lost;
      this.#everReady = true;
      this.#lost = false;
      if (wasLost) options.onReconnected?.();
    });
    const define = (name: keyof ScriptCommands, lua: string): void => this.redis.defineCommand(name, { numberOfKeys: 0, lua });
    define('seinePush', PUSH);
    define('seineLease', LEASE);
    define('seineAck', ACK);
    define('seineRenew', RENEW);
    define('seineRelease', RELEASE);
    define('seineClaimStart', CLAIM_START);
    define('seineRecordStart', RECORD_START);
    define('seineStatus', STATUS);
    define('seinePauseSlot', PAUSE_SLOT);
    this.#scripts = this.redis as unknown as ScriptCommands;
  }

  #everReady = false;

  get connected(): boolean {
    return this.redis.status === 'ready';
  }

  get ended(): boolean {
    return this.redis.status === 'end';
  }

  async leave(worker: string): Promise<void> {
    await this.redis.zrem(`${this.prefix}workers`, worker);
  }

  /** The last connection error, as one line (empty when there was none). */
  get lastError(): string {
    return this.#lastError;
  }

  /**
   * Connects, giving up after `timeoutMs` with an Error that says where and
   * why (`ECONNREFUSED`, a wrong password, …).
   */
  async connect(timeoutMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ready = new Promise<void>((resolve, reject) => {
      this.redis.once('ready', () => resolve());
      timer = setTimeout(() => reject(new Error(this.#lastError || 'no answer')), timeoutMs);
      this.redis.connect().catch(() => {
        // The retry strategy goes on trying until the timer says it is enough.
      });
    });
    try {
      await ready;
    } catch (error) {
      this.redis.disconnect();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    const info = await this.redis.info('server');
    const version = /redis_version:(\d+)\.(\d+)/.exec(info);
    if (version !== null && (Number(version[1]) < 6 || (Number(version[1]) === 6 && Number(version[2]) < 2))) {
      this.redis.disconnect();
      throw new Error(`it runs Redis ${version[1]}.${version[2]}, and seine's frontier needs Redis 6.2 or later`);
    }
  }

  async push(lifo: boolean, entries: readonly PushEntry[]): Promise<number[]> {
    const args: Array<string | number> = [this.prefix, lifo ? '1' : '0'];
    for (const entry of entries) args.push(entry.fingerprint, entry.slot, entry.priority, entry.json, entry.dontFilter ? '1' : '0', entry.bloomBits);
    return (await this.#scripts.seinePush(...args)) as number[];
  }

  async lease(worker: string, count: number, leaseMs: number, slotConcurrency: number, delayMs: number, delayFactor: number): Promise<{ counts: FrontierCounts; leased: LeasedRequest[] }> {
    const reply = (await this.#scripts.seineLease(this.prefix, worker, count, leaseMs, slotConcurrency, delayMs, delayFactor)) as Array<string | number>;
    const leased: LeasedRequest[] = [];
    for (let i = 6; i + 1 < reply.length; i += 2) leased.push({ id: String(reply[i]), json: String(reply[i + 1]) });
    return {
      counts: {
        queued: Number(reply[0]),
        leases: Number(reply[1]),
        startState: String(reply[2]),
        startAlive: Number(reply[3]) === 1,
        paused: Number(reply[4]) === 1,
        nextReadyMs: Number(reply[5]),
      },
      leased,
    };
  }

  /** True when the lease was still this worker's. */
  /** No worker leases from `slot` for `ms` milliseconds (PAUSE_SLOT). */
  async pauseSlot(slot: string, ms: number): Promise<void> {
    await this.#scripts.seinePauseSlot(this.prefix, slot, Math.max(0, Math.round(ms)));
  }

  async ack(worker: string, id: string, outcome: 'done' | 'failed', slotDelayMs: number | null, items: readonly string[]): Promise<boolean> {
    return (await this.#scripts.seineAck(this.prefix, worker, id, outcome, slotDelayMs === null ? '' : String(slotDelayMs), ...items)) === 1;
  }

  /** The ids that are no longer this worker's. */
  async renew(worker: string, leaseMs: number, stats: string, ids: readonly string[]): Promise<string[]> {
    return ((await this.#scripts.seineRenew(this.prefix, worker, leaseMs, stats, ...ids)) as unknown[]).map(String);
  }

  async release(worker: string, leaving: boolean, ids: readonly string[]): Promise<number> {
    return Number(await this.#scripts.seineRelease(this.prefix, worker, leaving ? '1' : '0', ...ids));
  }

  async claimStart(worker: string, leaseMs: number): Promise<{ state: 'done' | 'busy' | 'mine'; count: number }> {
    const [state, count] = (await this.#scripts.seineClaimStart(this.prefix, worker, leaseMs)) as [string, number];
    return { state: state as 'done' | 'busy' | 'mine', count: Number(count) };
  }

  /** Requests queued and leased now: whether a crawl whose start() ran is still going. */
  async pending(): Promise<{ queued: number; leases: number }> {
    const [queued, leases] = await Promise.all([this.redis.hget(`${this.prefix}meta`, 'queued'), this.redis.zcard(`${this.prefix}leases`)]);
    return { queued: Number(queued ?? 0) || 0, leases: Number(leases) };
  }

  async recordStart(worker: string, count: number, done: boolean): Promise<void> {
    await this.#scripts.seineRecordStart(this.prefix, worker, count, done ? '1' : '0');
  }

  async status(aliveMs: number): Promise<FrontierStatus> {
    const [metaPairs, leases, seen, items, workers, statsPairs] = (await this.#scripts.seineStatus(this.prefix, aliveMs)) as [string[], number, number, number, string[], string[]];
    const meta: Record<string, string> = {};
    for (let i = 0; i + 1 < metaPairs.length; i += 2) meta[metaPairs[i]!] = metaPairs[i + 1]!;
    const stats: Record<string, Record<string, unknown>> = {};
    for (let i = 0; i + 1 < statsPairs.length; i += 2) {
      try {
        stats[statsPairs[i]!] = JSON.parse(statsPairs[i + 1]!) as Record<string, unknown>;
      } catch {
        // A snapshot that is not JSON was not written by seine: left out of the merged view.
      }
    }
    return { meta, leases: Number(leases), seen: Number(seen), items: Number(items), workersAlive: workers, stats };
  }

  async setPaused(paused: boolean): Promise<void> {
    if (paused) await this.redis.hset(`${this.prefix}meta`, 'paused', '1');
    else await this.redis.hdel(`${this.prefix}meta`, 'paused');
  }

  /** Deletes every key of the crawl; returns how many. */
  async clear(): Promise<number> {
    let deleted = 0;
    // The prefix's braces are glob characters for SCAN's MATCH: escaped.
    const pattern = `${this.prefix.replace(/[*?[\]\\{}]/g, (c) => `\\${c}`)}*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await this.redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  }

  /** Waits for what was sent (up to `timeoutMs`), then closes the connection. */
  async quit(timeoutMs = 2000): Promise<void> {
    if (this.redis.status === 'end') return;
    const quit = this.redis.quit().then(
      () => undefined,
      () => undefined,
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([quit, late]);
    clearTimeout(timer);
    this.redis.disconnect();
  }
}

/** `connect ECONNREFUSED 127.0.0.1:6390` as it is; an AggregateError's first cause. */
function connectionErrorText(error: Error): string {
  const inner = error instanceof AggregateError && error.errors.length > 0 ? (error.errors[0] as Error) : error;
  return (inner.message || String(inner)).split('\n')[0] ?? '';
}
