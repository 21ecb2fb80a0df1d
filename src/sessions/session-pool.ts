import { Session, type HeaderPairs, type SessionRecord } from './session.js';

export type RetireReason = 'blocked' | 'max_usage';

export interface SessionPoolOptions {
  /** SESSIONS_POOL_SIZE: unpinned sessions in use at once. */
  size: number;
  /** SESSIONS_MAX_USAGE: requests an unpinned session sends before it is retired. */
  maxUsage: number;
  /** A new session's header set (SESSIONS_BROWSER_HEADERS), or null for none. */
  newHeaders?: () => HeaderPairs | null;
  onCreated?: (session: Session) => void;
  onRetired?: (session: Session, reason: RetireReason) => void;
  /** A retired session has no request in flight any more: its cookies can go. */
  onDiscarded?: (session: Session) => void;
  /** Picks an index below `n` (tests pass a fixed one). */
  random?: (n: number) => number;
}

/** What sessions.json holds (src/sessions/session-store.ts). */
export interface SessionPoolRecord {
  nextId: number;
  sessions: SessionRecord[];
  retired: string[];
}

/**
 * Crawlee's SessionPool, in short: up to `size` live sessions; a request
 * without a pinned session gets a new one while the pool is not full, else
 * one of the live ones AT RANDOM (as Crawlee's getSession: spreading
 * requests evenly over sessions would make each look like a steady robot;
 * random keeps their usage uneven, as people's). A session is retired when
 * it is blocked or has sent `maxUsage` requests, and a fresh one takes its
 * place on the next pick. Pinned sessions (`meta.session_id` chosen by the
 * spider) sit apart: made on first use with the spider's id, never picked
 * for other requests, never retired by usage.
 */
export class SessionPool {
  readonly size: number;
  readonly maxUsage: number;
  readonly #options: SessionPoolOptions;
  readonly #live: Session[] = [];
  readonly #pinned = new Map<string, Session>();
  /** Every session a request in flight may still name, retired ones included until their last answer. */
  readonly #known = new Map<string, Session>();
  readonly #retiredIds: string[] = [];
  #nextId = 1;

  constructor(options: SessionPoolOptions) {
    this.size = options.size;
    this.maxUsage = options.maxUsage;
    this.#options = options;
  }

  /** A live unpinned session for the next request. */
  pick(): Session {
    if (this.#live.length < this.size) return this.#create(this.#freshId(), false, this.#live);
    const random = this.#options.random ?? ((n: number) => Math.floor(Math.random() * n));
    return this.#live[random(this.#live.length)]!;
  }

  /** The pinned session `id`, made on first use. */
  pinned(id: string): Session {
    return this.#pinned.get(id) ?? this.#create(id, true, null);
  }

  /** The live unpinned session `id`, or undefined once it is retired. */
  live(id: string): Session | undefined {
    const session = this.#known.get(id);
    return session !== undefined && !session.retired && !session.pinned ? session : undefined;
  }

  /** The session a request was sent in (retired or not), while any of its requests is in flight. */
  known(id: string): Session | undefined {
    return this.#known.get(id);
  }

  /** Counts one request sent in `session`; the one that reaches SESSIONS_MAX_USAGE retires it (it is still sent). */
  use(session: Session): void {
    session.usage++;
    session.inFlight++;
    if (!session.pinned && session.usage >= this.maxUsage) this.retire(session, 'max_usage');
  }

  /** One request of `session` was answered (or failed). */
  done(session: Session): void {
    if (session.inFlight > 0) session.inFlight--;
    if (session.retired && session.inFlight === 0) this.#discard(session);
  }

  /** Takes `session` out of use; its cookies go once its last request in flight is answered. */
  retire(session: Session, reason: RetireReason): void {
    if (session.retired) return;
    session.retired = true;
    const index = this.#live.indexOf(session);
    if (index >= 0) this.#live.splice(index, 1);
    this.#pinned.delete(session.id);
    this.#retiredIds.push(session.id);
    this.#options.onRetired?.(session, reason);
    if (session.inFlight === 0) this.#discard(session);
  }

  /** Every session not retired, pinned ones included. */
  sessions(): Session[] {
    return [...this.#live, ...this.#pinned.values()];
  }

  record(): SessionPoolRecord {
    return { nextId: this.#nextId, sessions: this.sessions().map((session) => session.record()), retired: [...this.#retiredIds] };
  }

  /** Takes back what record() gave (a resumed JOBDIR crawl); unpinned sessions beyond `size` are left out. */
  restore(record: SessionPoolRecord): Session[] {
    this.#nextId = Math.max(this.#nextId, record.nextId);
    this.#retiredIds.push(...record.retired);
    const restored: Session[] = [];
    for (const saved of record.sessions) {
      if (this.#known.has(saved.id) || (!saved.pinned && this.#live.length >= this.size)) continue;
      const session = Session.fromRecord(saved);
      this.#known.set(session.id, session);
      if (session.pinned) this.#pinned.set(session.id, session);
      else this.#live.push(session);
      restored.push(session);
    }
    return restored;
  }

  get retiredIds(): readonly string[] {
    return this.#retiredIds;
  }

  #create(id: string, pinned: boolean, into: Session[] | null): Session {
    const session = new Session(id, pinned, this.#options.newHeaders?.() ?? null);
    this.#known.set(id, session);
    if (into !== null) into.push(session);
    else this.#pinned.set(id, session);
    this.#options.onCreated?.(session);
    return session;
  }

  #discard(session: Session): void {
    this.#known.delete(session.id);
    this.#options.onDiscarded?.(session);
  }

  /** `session-<n>`, skipping ids a spider pinned (or that an earlier run used). */
  #freshId(): string {
    let id: string;
    do id = `session-${this.#nextId++}`;
    while (this.#known.has(id));
    return id;
  }
}
