import { SeineError } from '../errors/seine-error.js';

/** Redis could not be reached (refused, no answer, a wrong password) within REDIS_CONNECT_TIMEOUT. */
export class RedisUnreachableError extends SeineError {
  static readonly code = 'SEINE_REDIS_UNREACHABLE';

  constructor(safeUrl: string, reason: string, options?: { cause?: unknown }) {
    super(RedisUnreachableError.code, `Cannot reach Redis at ${safeUrl}: ${reason} — start Redis there or set REDIS_URL`, options);
  }
}

/** `seine frontier <spider> clear` while workers are still sharing the crawl. */
export class FrontierBusyError extends SeineError {
  static readonly code = 'SEINE_FRONTIER_BUSY';

  constructor(spider: string, workers: readonly string[]) {
    const shown = workers.slice(0, 3).join(', ') + (workers.length > 3 ? `, … (${workers.length - 3} more)` : '');
    super(
      FrontierBusyError.code,
      `${workers.length} worker${workers.length === 1 ? ' is' : 's are'} still sharing the crawl ${spider} (${shown}): ` +
        'stop them first (Ctrl-C), or add --force to clear it under them',
    );
  }
}
