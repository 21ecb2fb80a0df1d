import { pformat } from './pformat.js';

/** Stats Scrapy stores as Python floats even when integral (`timedelta.total_seconds()`). */
export const FLOAT_STATS: readonly string[] = ['elapsed_time_seconds'];

/**
 * The message logged at close: `Dumping seine stats:` and the stats as
 * Python's pprint prints them (Scrapy's `Dumping Scrapy stats:`), e.g.
 *
 *     Dumping seine stats:
 *     {'downloader/request_count': 1,
 *      'finish_reason': 'finished',
 *      'start_time': datetime.datetime(2024, 1, 2, 3, 4, 5, 678000)}
 */
export function formatStatsDump(stats: Readonly<Record<string, unknown>>, floatKeys: Iterable<string> = FLOAT_STATS): string {
  return `Dumping seine stats:\n${pformat(stats, { floatKeys })}`;
}
