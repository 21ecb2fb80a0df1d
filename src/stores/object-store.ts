/**
 * Where media files and feeds are delivered: one interface for every kind of
 * store (a local folder, S3, FTP/FTPS, SFTP), so that FilesPipeline,
 * ImagesPipeline and the feed exporter never ask which kind they write to,
 * and a new scheme is one file that implements this (see store-registry.ts).
 *
 * Keys are '/'-separated paths under the store's root (`full/<sha1>.jpg`,
 * `items-1.jsonl.gz`), never starting with '/'. A store creates the folders
 * a key needs.
 */
import type { Readable } from 'node:stream';

/** What a store knows about an object it holds: FilesPipeline's expiry check reads it. */
export interface StoredObject {
  /** When the object was last written, in milliseconds since the epoch. */
  readonly lastModified: number;
  /**
   * The MD5 (hex) of its bytes when the store can tell (a folder computes it;
   * S3 gives the ETag of a single-part upload, as Scrapy reads it); undefined
   * when it cannot without downloading the object.
   */
  readonly checksum?: string | undefined;
}

export interface PutOptions {
  /** The object's media type, where the store records one (S3's Content-Type). */
  readonly contentType?: string | undefined;
  /** Its size in bytes when known beforehand (a local file being uploaded). */
  readonly size?: number | undefined;
}

export interface ObjectStore {
  /** The store's URI with any password masked (`ftp://user:***@host/dir`): the only form logs, stats and errors show. */
  readonly displayUri: string;
  /**
   * Writes `body` at `key`, streaming a Readable rather than reading it
   * whole, and resolves once the object is stored. A failure rejects with a
   * StoreError whose message names `displayUri` and the key, never a secret.
   */
  put(key: string, body: Readable | Buffer, options?: PutOptions): Promise<void>;
  /** What is stored at `key`, or undefined when nothing is (or it cannot be read). */
  stat(key: string): Promise<StoredObject | undefined>;
  /** Releases connections. Stores are opened on first use and closed with the crawl; closing twice is harmless. */
  close(): Promise<void>;
}
