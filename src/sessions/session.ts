/** A header set, in the order its browser sends it. */
export type HeaderPairs = Array<[string, string]>;

/** What a session is, as saved in JOBDIR (sessions.json). */
export interface SessionRecord {
  id: string;
  usage: number;
  pinned: boolean;
  proxy: string | null;
  headers: HeaderPairs | null;
}

/**
 * One session: an id (its cookie jar's `meta.cookiejar` key), how many
 * requests it sent, its proxy (asked of the proxy pool once, on first use)
 * and its header set. Pinned sessions are the spider's own (`meta.session_id`
 * it chose): the pool never hands them to other requests nor retires them.
 */
export class Session {
  usage = 0;
  /** Requests sent and not yet answered: a retired session's cookies are dropped when this reaches 0. */
  inFlight = 0;
  retired = false;
  /** undefined: not asked yet. */
  proxy: string | null | undefined;

  constructor(
    readonly id: string,
    readonly pinned: boolean,
    readonly headers: HeaderPairs | null,
  ) {}

  record(): SessionRecord {
    return { id: this.id, usage: this.usage, pinned: this.pinned, proxy: this.proxy ?? null, headers: this.headers };
  }

  static fromRecord(record: SessionRecord): Session {
    const session = new Session(record.id, record.pinned, record.headers);
    session.usage = record.usage;
    session.proxy = record.proxy;
    return session;
  }
}
