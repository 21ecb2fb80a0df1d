/**
 * What is checked before any feed opens, so that a bad second feed leaves
 * the first one's old file untouched and nothing is crawled: each feed's
 * target (a local folder that exists, a remote URI that names a file),
 * FEED_TEMPDIR when a feed is staged there, and the warnings a Scrapy user
 * expects (a remote feed asked to append). What a killed run left in
 * FEED_TEMPDIR is kept under an undelivered name.
 */
import { existsSync, statSync } from 'node:fs';
import { maskUrlCredentials } from '../url-credentials.js';
import { FeedConfigError } from './feed-errors.js';
import type { ResolvedFeed } from './feed-settings.js';
import { checkFeedFolder } from './feed-storage.js';
import { remoteFeedTarget } from './feed-target.js';
import { expandFeedUri } from './feed-uri.js';
import { keepStaleWorkingFiles } from './staged-storage.js';

/** The file names a feed's URI template can give: its last segment, each placeholder any text. */
function fileNamePattern(template: string): RegExp {
  const last = template.split(/[/\\]/).pop()!;
  const parts = last.split(/%(?:\([^)]*\))?[-#0 +]*\d*[sdi]/).map((part) => part.replaceAll('%%', '%').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+')}$`);
}

export function preflightFeeds(feeds: readonly ResolvedFeed[], params: Record<string, unknown>, tempDir: string, warn: (message: string) => void): void {
  for (const feed of feeds) {
    const uri = expandFeedUri(feed.uri, params);
    const remote = remoteFeedTarget(uri);
    if (typeof remote === 'string') throw new FeedConfigError(`Cannot deliver the feed '${feed.uri}': ${remote}`);
    if (remote === undefined) checkFeedFolder(uri);
    if (feed.appendRequested) {
      // Scrapy's warning for S3; seine's FTP and SFTP stores replace files too.
      warn(
        `${remote!.kind.replace('FeedStorage', '')} feeds are replaced, not appended to: ${maskUrlCredentials(feed.uri)} will be overwritten. To suppress this warning, remove the overwrite option from your FEEDS setting or set it to true`,
      );
    }
  }
  if (!feeds.some((feed) => feed.plugins.length > 0 || remoteFeedTarget(feed.uri) !== undefined)) return;
  if (!existsSync(tempDir) || !statSync(tempDir).isDirectory()) {
    throw new FeedConfigError(`FEED_TEMPDIR '${tempDir}' is not a folder: create it, or set FEED_TEMPDIR to a folder where the local copies of remote and post-processed feeds can be written`);
  }
  const names = feeds.map((feed) => fileNamePattern(feed.uri));
  for (const { from, to, pid } of keepStaleWorkingFiles(tempDir, names)) {
    warn(`A run that was killed (process ${pid}, no longer running) left the items it exported in ${from}: kept as ${to} (deliver it from there)`);
  }
}
