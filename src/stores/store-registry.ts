/**
 * Which store a URI names, by its scheme: a path or `file://` is a folder;
 * `s3://`, `ftp://`, `ftps://` and `sftp://` are the remote stores, each one
 * file of this folder, whose client package is loaded on first use (they are large).
 * A new scheme is one file and one row of REMOTE_STORES.
 */
import { FolderStore } from './folder-store.js';
import { openFtpStore } from './ftp-store.js';
import type { ObjectStore } from './object-store.js';
import { openS3Store } from './s3-store.js';
import { openSftpStore } from './sftp-store.js';
import { StoreError } from './store-error.js';
import { hideUserinfo } from './store-uri.js';

/** What a remote store reads from the crawl's settings (AWS_*, FEED_STORAGE_FTP_ACTIVE, FEED_STORAGE_S3_ACL, …). */
export type StoreSettings = { get(name: string): unknown };

/** What differs between the stores a crawl opens: media stores and feeds give S3 different ACLs. */
export interface StoreOptions {
  /** The canned ACL of objects put on S3 (FILES_STORE_S3_ACL for media); default FEED_STORAGE_S3_ACL. */
  readonly acl?: string | undefined;
}

export type StoreFactory = (uri: string, settings: StoreSettings, options?: StoreOptions) => Promise<ObjectStore>;

// The stores' files are small; each loads its client package (lazyPackage) on its first put or stat.
const REMOTE_STORES: Record<string, StoreFactory> = {
  s3: openS3Store,
  ftp: openFtpStore,
  ftps: openFtpStore,
  sftp: openSftpStore,
};

/** The URI's scheme when it has one of two letters or more (`C:\…` is a path), else undefined. */
export function uriScheme(uri: string): string | undefined {
  const match = /^([a-z][a-z0-9+.-]+):\/\//i.exec(uri);
  return match ? match[1]!.toLowerCase() : undefined;
}

export function isKnownStoreUri(uri: string): boolean {
  const scheme = uriScheme(uri);
  return scheme === undefined || scheme === 'file' || scheme in REMOTE_STORES;
}

export const SUPPORTED_STORE_SCHEMES: readonly string[] = ['file', ...Object.keys(REMOTE_STORES)];

export async function openStore(uri: string, settings: StoreSettings, options?: StoreOptions): Promise<ObjectStore> {
  const scheme = uriScheme(uri);
  if (scheme === undefined || scheme === 'file') return new FolderStore(uri);
  const factory = REMOTE_STORES[scheme];
  if (!factory) {
    const supported = SUPPORTED_STORE_SCHEMES.map((name) => `${name}://`).join(', ');
    throw new StoreError(hideUserinfo(uri), `unsupported scheme '${scheme}'; use a folder path or one of ${supported}`);
  }
  return factory(uri, settings, options);
}
