import { FeedOptionError } from '../feeds/feed-errors.js';
import { formatFromPath, type FeedSpec } from '../feeds/feed-settings.js';

export { FeedOptionError };

/**
 * `-o file[:format]` / `-O file[:format]`: the format from an explicit
 * suffix, else the extension; `-` is standard output (JSON Lines unless a
 * suffix says otherwise, e.g. `-:json`). Whether the format exists is
 * checked when the crawl starts (resolveFeed), because a project's
 * FEED_EXPORTERS may add formats: until then an unknown extension leaves
 * the format unset, and `option` keeps the value for the error message.
 */
export function parseFeedOption(value: string, overwrite = false): FeedSpec & { overwrite: boolean; option: string } {
  const suffix = /^(.+):([A-Za-z]\w*)$/.exec(value);
  // `C:` or a URI scheme is not a format: only treat the suffix as one when it is not followed by a path.
  if (suffix !== null && !suffix[2]!.includes('/')) return { path: suffix[1]!, format: suffix[2]!, overwrite, option: value };
  const format = formatFromPath(value);
  return format === undefined ? { path: value, overwrite, option: value } : { path: value, format, overwrite, option: value };
}
