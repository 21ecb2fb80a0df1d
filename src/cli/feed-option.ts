import { SeineError } from '../errors/seine-error.js';
import { FEED_FORMATS } from '../feeds/exporters/index.js';
import { formatFromPath, type FeedSpec } from '../feeds/feed-settings.js';

export class FeedOptionError extends SeineError {
  static readonly code = 'SEINE_FEED_OPTION';
  constructor(message: string) {
    super(FeedOptionError.code, message);
  }
}

/**
 * `-o file[:format]` / `-O file[:format]`: the format from an explicit
 * suffix, else the extension; `-` is standard output (JSON Lines unless a
 * suffix says otherwise, e.g. `-:json`).
 */
export function parseFeedOption(value: string, overwrite = false): FeedSpec & { format: string; overwrite: boolean } {
  const suffix = /^(.+):([A-Za-z]\w*)$/.exec(value);
  // `C:` or a URI scheme is not a format: only treat the suffix as one when it is not followed by a path.
  if (suffix !== null && !suffix[2]!.includes('/')) {
    const format = suffix[2]!;
    if (!FEED_FORMATS.includes(format)) {
      throw new FeedOptionError(`Unknown feed format '${format}' in '${value}': use one of ${FEED_FORMATS.join(', ')} after the colon, e.g. -o items.out:jsonlines`);
    }
    return { path: suffix[1]!, format, overwrite };
  }
  const format = formatFromPath(value);
  if (format === undefined) {
    throw new FeedOptionError(`Cannot tell the feed format of '${value}': use an extension (.json, .jsonl, .jl, .csv, .xml) or add :format, e.g. -o ${value}:jsonlines`);
  }
  return { path: value, format, overwrite };
}
