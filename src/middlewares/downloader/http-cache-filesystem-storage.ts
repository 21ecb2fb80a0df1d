import { readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Crawler } from '../../contracts/crawler.js';
import { fingerprint as requestFingerprint } from '../../http/fingerprint.js';
import { Headers } from '../../http/headers.js';
import type { Request } from '../../http/request.js';
import { Response } from '../../http/response.js';
import { defaultLogBus, type LogBus, type Logger } from '../../log/index.js';
import { dataPath } from '../../project/data-path.js';
import { makePrivateDir, writePrivateFile } from '../../private-files.js';
import { DEFAULT_SETTINGS } from '../../settings/index.js';
import type { Spider } from '../../contracts/spider.js';
import type { HttpCacheStorage } from './http-cache-interfaces.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The logger of the storages, as Scrapy's `scrapy.extensions.httpcache`. */
export const HTTP_CACHE_STORAGE_LOGGER = 'seine.extensions.httpcache';

export interface FilesystemCacheStorageOptions {
  /**
   * The cache folder; entries go in `<dir>/<spider name>/<fp[0:2]>/<fp>/`.
   * Default: HTTPCACHE_DIR's default in the data folder (src/project/data-path.ts).
   */
  dir?: string;
  /** HTTPCACHE_EXPIRATION_SECS: entries older than this are not used (0: never expire). */
  expirationSecs?: number;
  /** HTTPCACHE_GZIP: write every file of an entry gzipped. */
  gzip?: boolean;
  /** The cache key of a request; the request fingerprint by default, as dedupe uses. */
  fingerprint?: (request: Request) => string;
  logBus?: LogBus;
  /** For tests: the clock, in ms since the epoch. */
  now?: () => number;
}

/** What the `meta` file of an entry holds. */
export interface CacheEntryMeta {
  url: string;
  method: string;
  status: number;
  response_url: string;
  /** When it was stored, in seconds since the epoch. */
  timestamp: number;
}

function isEntryMeta(value: unknown): value is CacheEntryMeta {
  const meta = value as CacheEntryMeta;
  return typeof value === 'object' && value !== null && typeof meta.status === 'number' && typeof meta.response_url === 'string';
}

/** Headers as `Name: value` lines joined by CRLF, one line per value (w3lib's headers_dict_to_raw). */
export function headersToRaw(headers: Headers): string {
  const lines: string[] = [];
  for (const [name, values] of headers.entries()) for (const value of values) lines.push(`${name}: ${value}`);
  return lines.join('\r\n');
}

/** The reverse of headersToRaw; lines without a colon are skipped. */
export function headersFromRaw(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * The request headers that carry credentials: the cache stores them as
 * `Name: <redacted>` (docs/security.md). Nothing reads them back: an entry is
 * found by the request fingerprint, the policies look only at the cached
 * response's headers and the new request's (RFC2616Policy has no Vary
 * handling, as Scrapy's), so `request_headers` is a record for people.
 */
export const REDACTED_REQUEST_HEADERS: readonly string[] = ['Authorization', 'Proxy-Authorization', 'Cookie'];

/** The marker written in place of a credential header's value. */
export const REDACTED = '<redacted>';

/** A copy of `headers` with the value of each credential header replaced by `<redacted>` (one line per header). */
export function redactCredentials(headers: Headers): Headers {
  const redacted = new Headers();
  const secret = new Set(REDACTED_REQUEST_HEADERS.map((name) => name.toLowerCase()));
  for (const [name, values] of headers.entries()) {
    if (secret.has(name.toLowerCase())) redacted.append(name, REDACTED);
    else for (const value of values) redacted.append(name, value);
  }
  return redacted;
}

function isGzipped(bytes: Buffer): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/**
 * Scrapy's FilesystemCacheStorage: one folder per request,
 * `<dir>/<spider name>/<first 2 hex digits of the fingerprint>/<fingerprint>/`,
 * holding `request_headers`, `request_body`, `response_headers`,
 * `response_body` and `meta` (JSON: url, method, status, response_url,
 * timestamp). With HTTPCACHE_GZIP every file is gzipped; a reader tells by
 * the `meta` file, so a cache written either way reads back.
 *
 * `meta` is written last (and removed first when an entry is replaced), so
 * an entry interrupted mid-write is not found rather than half-read. An
 * entry expires HTTPCACHE_EXPIRATION_SECS after its `meta` file's
 * modification time (touch it to keep an entry). An entry that cannot be
 * read is logged as a warning and treated as missing (Scrapy fails the
 * request).
 */
export class FilesystemCacheStorage implements HttpCacheStorage {
  readonly dir: string;
  readonly expirationSecs: number;
  readonly gzip: boolean;
  readonly #fingerprint: (request: Request) => string;
  readonly #logger: Logger;
  readonly #now: () => number;

  constructor(options: FilesystemCacheStorageOptions = {}) {
    this.dir = options.dir ?? dataPath(DEFAULT_SETTINGS.HTTPCACHE_DIR);
    this.expirationSecs = options.expirationSecs ?? DEFAULT_SETTINGS.HTTPCACHE_EXPIRATION_SECS;
    this.gzip = options.gzip ?? DEFAULT_SETTINGS.HTTPCACHE_GZIP;
    this.#fingerprint = options.fingerprint ?? ((request) => requestFingerprint(request));
    this.#logger = (options.logBus ?? defaultLogBus).getLogger(HTTP_CACHE_STORAGE_LOGGER);
    this.#now = options.now ?? Date.now;
  }

  static fromCrawler(crawler: Crawler): FilesystemCacheStorage {
    const { settings } = crawler;
    return new FilesystemCacheStorage({
      dir: dataPath(settings.get('HTTPCACHE_DIR')),
      expirationSecs: settings.get('HTTPCACHE_EXPIRATION_SECS'),
      gzip: settings.get('HTTPCACHE_GZIP'),
      logBus: crawler.logBus,
    });
  }

  openSpider(spider: Spider): void {
    this.#logger.debug(`Using filesystem cache storage in ${this.dir}`, { spider });
  }

  /** The folder of a request's entry. */
  entryPath(spider: Spider, request: Request): string {
    const key = this.#fingerprint(request);
    return join(this.dir, spider.name, key.slice(0, 2), key);
  }

  async retrieveResponse(spider: Spider, request: Request): Promise<Response | null> {
    const path = this.entryPath(spider, request);
    try {
      const metaPath = join(path, 'meta');
      const { mtimeMs } = await stat(metaPath);
      if (this.expirationSecs > 0 && this.#now() - mtimeMs > this.expirationSecs * 1000) return null;
      const rawMeta = await readFile(metaPath);
      const gzipped = isGzipped(rawMeta);
      const read = async (name: string): Promise<Buffer> => {
        const bytes = name === 'meta' ? rawMeta : await readFile(join(path, name));
        return gzipped ? gunzipAsync(bytes) : bytes;
      };
      const meta: unknown = JSON.parse((await read('meta')).toString('utf8'));
      if (!isEntryMeta(meta)) throw new Error('meta has no status or response_url');
      const headers = headersFromRaw((await read('response_headers')).toString('latin1'));
      const body = await read('response_body');
      return new Response({ url: meta.response_url, status: meta.status, headers, body, request });
    } catch (error) {
      if (isMissing(error) && !(await exists(join(path, 'meta')))) return null;
      this.#logger.warning(`Ignoring unreadable cache entry ${path} for ${request.toString()}: ${(error as Error).message}`, { spider });
      return null;
    }
  }

  async storeResponse(spider: Spider, request: Request, response: Response): Promise<void> {
    const path = this.entryPath(spider, request);
    await makePrivateDir(path);
    await unlink(join(path, 'meta')).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
    });
    const meta: CacheEntryMeta = {
      url: request.url,
      method: request.method,
      status: response.status,
      response_url: response.url,
      timestamp: this.#now() / 1000,
    };
    const write = async (name: string, data: Buffer): Promise<void> => writePrivateFile(join(path, name), this.gzip ? await gzipAsync(data) : data);
    // Header values are byte strings on the wire; latin1 keeps each byte as it came.
    await write('request_headers', Buffer.from(headersToRaw(redactCredentials(request.headers)), 'latin1'));
    await write('request_body', request.body);
    await write('response_headers', Buffer.from(headersToRaw(response.headers), 'latin1'));
    await write('response_body', response.body);
    await write('meta', Buffer.from(JSON.stringify(meta), 'utf8'));
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
