/**
 * Where a feed (one batch of it, its placeholders filled in) goes: standard
 * output, a local file, or a remote store (`s3://bucket/key`,
 * `ftp://user:pass@host[:port]/path`, `ftps://…`, `sftp://…`). A remote
 * feed is delivered through the store of the folder it names (src/stores),
 * as one object named by the URI's last segment.
 */
import { maskUrlCredentials } from '../url-credentials.js';
import { isStdout } from './feed-settings.js';

/** Scrapy's storage class names (`feedexport/success_count/<name>`); SFTP is seine's. */
export const REMOTE_FEED_STORAGES = {
  s3: 'S3FeedStorage',
  ftp: 'FTPFeedStorage',
  ftps: 'FTPFeedStorage',
  sftp: 'SFTPFeedStorage',
} as const;

export type RemoteStorageKind = (typeof REMOTE_FEED_STORAGES)[keyof typeof REMOTE_FEED_STORAGES];
export type FeedStorageKind = 'FileFeedStorage' | 'StdoutFeedStorage' | RemoteStorageKind;

export interface RemoteFeedTarget {
  /** The store's URI: the feed URI without its last segment (`s3://bucket/exports`). */
  readonly storeUri: string;
  /** The object's name in that store (`items-1.jsonl.gz`). */
  readonly key: string;
  readonly kind: RemoteStorageKind;
}

/** The URI's scheme (lower case) when it is one of the remote feed storages', else undefined. */
export function remoteScheme(uri: string): keyof typeof REMOTE_FEED_STORAGES | undefined {
  const scheme = /^([a-z][a-z0-9+.-]+):\/\//i.exec(uri)?.[1]?.toLowerCase();
  return scheme !== undefined && scheme in REMOTE_FEED_STORAGES ? (scheme as keyof typeof REMOTE_FEED_STORAGES) : undefined;
}

/** Whether a feed URI has a scheme seine cannot deliver to (a path, `file://`, `-` and the remote schemes it can). */
export function isUnsupportedFeedUri(uri: string): boolean {
  return /^[a-z][a-z0-9+.-]+:/i.test(uri) && !isStdout(uri) && !uri.startsWith('file://') && remoteScheme(uri) === undefined;
}

/**
 * Splits a remote feed URI into its store and key, or says in one line why
 * it cannot be (no object name: `s3://bucket/` or `s3://bucket`).
 */
export function remoteFeedTarget(uri: string): RemoteFeedTarget | string | undefined {
  const scheme = remoteScheme(uri);
  if (scheme === undefined) return undefined;
  // The authority runs to the first '/' (a '/' in a password must be written %2F).
  const match = /^([^:]+:\/\/[^/]*)(\/.*)?$/.exec(uri);
  const path = match?.[2] ?? '';
  const cut = path.lastIndexOf('/');
  const key = path.slice(cut + 1);
  if (match === null || key === '') {
    return `the feed URI ${maskUrlCredentials(uri)} names no file: end it with the file's name, e.g. ${scheme}://…/items.jsonl`;
  }
  return { storeUri: match[1]! + path.slice(0, cut), key, kind: REMOTE_FEED_STORAGES[scheme] };
}
