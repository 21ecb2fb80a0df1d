/**
 * Which store a URI names, by its scheme: a path or `file://` is a folder;
 * `s3://`, `ftp://`, `ftps://` and `sftp://` are the remote stores, each one
 * file of this folder, loaded on first use (their client packages are large).
 */
import { FolderStore } from './folder-store.js';
import type { ObjectStore } from './object-store.js';

/** What a remote store reads from the crawl's settings (AWS_*, FEED_STORAGE_FTP_ACTIVE, FEED_STORAGE_S3_ACL, …). */
export type StoreSettings = { get(name: string): unknown };

export type StoreFactory = (uri: string, settings: StoreSettings) => Promise<ObjectStore>;

const REMOTE_STORES: Record<string, StoreFactory> = {
  // Filled in by the remote stores' files (s3-store.ts, ftp-store.ts, sftp-store.ts).
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

export async function openStore(uri: string, settings: StoreSettings): Promise<ObjectStore> {
  const scheme = uriScheme(uri);
  if (scheme === undefined || scheme === 'file') return new FolderStore(uri);
  const factory = REMOTE_STORES[scheme];
  if (!factory) throw new Error(`Unsupported store scheme '${scheme}' in ${uri}`);
  return factory(uri, settings);
}
