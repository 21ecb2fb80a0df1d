/**
 * Scrapy's FilesPipeline (scrapy/pipelines/files.py and media.py, 2.8):
 * downloads the URLs an item lists in FILES_URLS_FIELD through the crawl's
 * engine (`crawler.engine.download`: download slots, the downloader
 * middlewares, the handlers; no scheduler, no callback), stores each in
 * FILES_STORE under `full/<sha1 of the URL><ext>`, and sets the item's
 * FILES_RESULT_FIELD to `{ url, path, checksum, status }` for each URL that
 * was stored, in the order of the URLs. The item waits for its files
 * (processItem resolves when they are done), so the crawl does not close
 * while they download.
 *
 * Each URL is downloaded once per crawl however many items name it: items
 * that name a URL being downloaded share that download, later ones reuse its
 * result (its outcome is remembered by request fingerprint, as Scrapy's
 * `info.downloaded`). A failure (a non-200 status, an empty body, a refused
 * redirect, a download error, a store that fails) is one WARNING with
 * Scrapy's wording and the URL is left out of the results: never a crash.
 */
import type { Crawler } from '../contracts/crawler.js';
import type { ItemPipeline } from '../contracts/components.js';
import type { Spider } from '../contracts/spider.js';
import { NotConfigured, isIgnoreRequest } from '../contracts/control-flow.js';
import { Request, type Item } from '../http/request.js';
import type { Response } from '../http/response.js';
import { fingerprint } from '../http/fingerprint.js';
import { Settings } from '../settings/index.js';
import { getLogger, type Logger } from '../log/index.js';
import { openStore } from '../stores/store-registry.js';
import type { ObjectStore } from '../stores/object-store.js';
import { StoreError } from '../stores/store-error.js';
import { putWithRetries } from '../stores/retrying-put.js';
import type { Readable } from 'node:stream';
import { FileException } from './media-errors.js';
import { scrapyFilePath } from './file-path.js';
import { mediaUrls, setMediaResults } from './item-fields.js';
import { bodyMd5, bodySize, bodySource, releaseBody } from './media-body.js';

/** What a media pipeline knows of the crawl it serves (Scrapy's SpiderInfo). */
export interface MediaInfo {
  readonly spider: Spider;
}

/** One stored file, as Scrapy records it in the item. */
export interface FileResult {
  url: string;
  path: string;
  /** MD5 (hex) of the stored bytes; null for an `uptodate` file whose store cannot tell it. */
  checksum: string | null;
  status: 'downloaded' | 'uptodate' | 'cached';
}

/** Scrapy's `(success, result_or_failure)` pair per media request, in itemCompleted's results. */
export type MediaResult = [true, FileResult] | [false, Error];

/** The keyword arguments Scrapy passes as `*, item=None`. */
export interface MediaItemOption {
  item?: Item | undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export class FilesPipeline implements ItemPipeline {
  /** What the log lines call a media file: 'file', 'image'. */
  static readonly MEDIA_NAME: string = 'file';
  /** The setting that names the store: ImagesPipeline reads IMAGES_STORE. */
  static readonly STORE_SETTING: 'FILES_STORE' | 'IMAGES_STORE' = 'FILES_STORE';

  readonly storeUri: string;
  readonly settings: Settings;
  expires: number;
  filesUrlsField: string;
  filesResultField: string;
  readonly allowRedirects: boolean;
  crawler: Crawler | null = null;
  protected logger: Logger;
  #store: Promise<ObjectStore> | null = null;
  #opened: ObjectStore | null = null;
  /** Each media URL's download, by request fingerprint: one per crawl, shared by every item that names it. */
  readonly #downloads = new Map<string, Promise<MediaResult>>();
  #info: MediaInfo | null = null;

  constructor(storeUri?: string | null, settings: Settings = new Settings()) {
    if (!storeUri) throw new NotConfigured(`${new.target.name}: ${(new.target as typeof FilesPipeline).STORE_SETTING} is not set`);
    this.storeUri = storeUri;
    this.settings = settings;
    this.expires = settings.getInt('FILES_EXPIRES');
    this.filesUrlsField = String(settings.get('FILES_URLS_FIELD'));
    this.filesResultField = String(settings.get('FILES_RESULT_FIELD'));
    this.allowRedirects = settings.getBool('MEDIA_ALLOW_REDIRECTS');
    this.logger = getLogger('seine.pipelines.files');
  }

  static fromCrawler<T extends FilesPipeline>(this: (new (storeUri?: string | null, settings?: Settings) => T) & { STORE_SETTING: string }, crawler: Crawler): T {
    const pipeline = new this(crawler.settings.get(this.STORE_SETTING as 'FILES_STORE'), crawler.settings);
    pipeline.crawler = crawler;
    pipeline.logger = crawler.logBus.getLogger('seine.pipelines.files');
    return pipeline;
  }

  get mediaName(): string {
    return (this.constructor as typeof FilesPipeline).MEDIA_NAME;
  }

  /** The store, opened on first use (a remote store connects then) and closed with the crawl. */
  get store(): Promise<ObjectStore> {
    if (this.#store === null) {
      // Scrapy's FILES_STORE_S3_ACL / IMAGES_STORE_S3_ACL: media objects get their own ACL, not the feeds'.
      const acl = this.settings.get(`${(this.constructor as typeof FilesPipeline).STORE_SETTING}_S3_ACL` as 'FILES_STORE_S3_ACL');
      this.#store = openStore(this.storeUri, this.settings, acl ? { acl: String(acl) } : {}).then((store) => (this.#opened = store));
    }
    return this.#store;
  }

  openSpider(spider: Spider): void {
    this.#info = { spider };
  }

  async closeSpider(): Promise<void> {
    await this.#opened?.close();
  }

  async processItem(item: Item, spider: Spider): Promise<Item> {
    const info = (this.#info ??= { spider });
    const requests = await this.getMediaRequests(item, info);
    const results = await Promise.all(requests.map((request) => this.#processRequest(request, info, item)));
    return this.itemCompleted(results, item, info);
  }

  #processRequest(request: Request, info: MediaInfo, item: Item): Promise<MediaResult> {
    const key = fingerprint(request);
    let outcome = this.#downloads.get(key);
    if (outcome === undefined) {
      outcome = this.#fetchMedia(request, info, item).then(
        (result): MediaResult => [true, result],
        (error: unknown): MediaResult => [false, error instanceof Error ? error : new Error(String(error))],
      );
      this.#downloads.set(key, outcome);
    }
    return outcome;
  }

  async #fetchMedia(request: Request, info: MediaInfo, item: Item): Promise<FileResult> {
    const known = await this.mediaToDownload(request, info, { item });
    if (known) return known;
    this.modifyMediaRequest(request);
    let response: Response;
    try {
      response = await this.#engine().download(request);
    } catch (error) {
      return this.mediaFailed(error instanceof Error ? error : new Error(String(error)), request, info);
    }
    try {
      return await this.mediaDownloaded(response, request, info, { item });
    } finally {
      await releaseBody(response);
    }
  }

  #engine(): Crawler['engine'] {
    if (this.crawler === null) throw new Error(`${this.constructor.name} was not built by a crawl (fromCrawler): it cannot download`);
    return this.crawler.engine;
  }

  /**
   * Scrapy's _modify_media_request: without MEDIA_ALLOW_REDIRECTS every
   * status comes back as it is (a redirect is a failed file); with it,
   * redirects are followed and every other status comes back. The body is
   * streamed to a temporary file unless the HTTP cache, which keeps bodies,
   * needs it in memory (WARC archives read it from the file: src/warc/warc-writer.ts).
   */
  protected modifyMediaRequest(request: Request): void {
    if (this.allowRedirects) request.meta.handle_httpstatus_list = ALL_BUT_REDIRECTS;
    else request.meta.handle_httpstatus_all = true;
    if (this.streamsBodies && !this.settings.getBool('HTTPCACHE_ENABLED')) {
      request.meta.body_to_file = true;
    }
  }

  /**
   * True: bodies are streamed to a temporary file (a file of any size within
   * DOWNLOAD_MAXSIZE never sits in memory). ImagesPipeline says false: the
   * decoder holds the whole image anyway (its pixels take more room than its
   * file), and decoding from memory rather than reopening a file for the full
   * image and each thumbnail costs less (docs/media.md).
   */
  protected get streamsBodies(): boolean {
    return true;
  }

  /** Scrapy's referer_str(): the request's Referer header, or None. */
  protected refererOf(request: Request): string {
    return request.headers.get('Referer') ?? 'None';
  }

  /**
   * A file stored less than FILES_EXPIRES days ago is `uptodate`: no
   * download. Resolves with its result, or undefined to download it.
   */
  async mediaToDownload(request: Request, info: MediaInfo, { item }: MediaItemOption = {}): Promise<FileResult | undefined> {
    const path = this.filePath(request, undefined, info, { item });
    let stored;
    try {
      stored = await (await this.store).stat(path);
    } catch (error) {
      this.logger.error(`${this.constructor.name}.store.stat: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
    if (stored === undefined || !stored.lastModified) return undefined;
    if ((Date.now() - stored.lastModified) / DAY_MS > this.expires) return undefined;
    this.logger.debug(`File (uptodate): Downloaded ${this.mediaName} from ${request.toString()} referred in <${this.refererOf(request)}>`);
    this.incStats('uptodate');
    return { url: request.url, path, checksum: stored.checksum ?? null, status: 'uptodate' };
  }

  /** A download that failed (not a response): Scrapy's WARNING, except for an ignored request (robots.txt). */
  mediaFailed(error: Error, request: Request, _info: MediaInfo): never {
    if (!isIgnoreRequest(error)) {
      this.logger.warning(`File (unknown-error): Error downloading ${this.mediaName} from ${request.toString()} referred in <${this.refererOf(request)}>: ${error.message}`);
    }
    throw new FileException('', { cause: error });
  }

  /** A response came: a 200 with a body is stored and recorded; anything else is a failed file. */
  async mediaDownloaded(response: Response, request: Request, info: MediaInfo, { item }: MediaItemOption = {}): Promise<FileResult> {
    const referer = this.refererOf(request);
    if (response.status !== 200) {
      this.logger.warning(`File (code: ${response.status}): Error downloading file from ${request.toString()} referred in <${referer}>`);
      throw new FileException('download-error');
    }
    if (bodySize(response) === 0) {
      this.logger.warning(`File (empty-content): Empty file from ${request.toString()} referred in <${referer}>: no-content`);
      throw new FileException('empty-content');
    }
    const status = response.flags.includes('cached') ? 'cached' : 'downloaded';
    this.logger.debug(`File (${status}): Downloaded file from ${request.toString()} referred in <${referer}>`);
    this.incStats(status);
    let path: string;
    let checksum: string;
    try {
      path = this.filePath(request, response, info, { item });
      checksum = await this.fileDownloaded(response, request, info, { item });
    } catch (error) {
      if (error instanceof StoreError) {
        // Not Scrapy's unknown-error ERROR: a store that fails is an outcome of this file, said once, the crawl goes on.
        this.crawler?.stats.inc('file_store_error_count');
        this.logger.warning(`File (store-error): Error storing file from ${request.toString()} referred in <${referer}>: ${error.message}`);
        throw new FileException(error.message, { cause: error });
      }
      if (error instanceof FileException) {
        this.logger.warning(`File (error): Error processing file from ${request.toString()} referred in <${referer}>: ${error.message}`);
        throw error;
      }
      this.logger.error(`File (unknown-error): Error processing file from ${request.toString()} referred in <${referer}>: ${error instanceof Error ? error.message : String(error)}`);
      throw new FileException(error instanceof Error ? error.message : String(error), { cause: error });
    }
    return { url: request.url, path, checksum, status };
  }

  incStats(status: string): void {
    this.crawler?.stats.inc('file_count');
    this.crawler?.stats.inc(`file_status_count/${status}`);
  }

  // The overridable interface, Scrapy's names in camelCase.

  /** The requests for an item's media: one GET per URL in FILES_URLS_FIELD. */
  getMediaRequests(item: Item, _info: MediaInfo): Request[] | Promise<Request[]> {
    return mediaUrls(item, this.filesUrlsField).map((url) => new Request(url));
  }

  /** Stores the body at filePath() and resolves with the MD5 of its bytes. */
  async fileDownloaded(response: Response, request: Request, info: MediaInfo, { item }: MediaItemOption = {}): Promise<string> {
    const path = this.filePath(request, response, info, { item });
    const checksum = bodyMd5(response);
    await this.putFile(path, () => bodySource(response), { size: bodySize(response) });
    return checksum;
  }

  /**
   * How a store that fails is tried again before the file counts as failed:
   * putWithRetries' attempts and backoff (3 attempts, 1 s then 2 s), so a
   * store briefly down does not cost a file.
   */
  protected storeRetry: { attempts?: number; firstDelayMs?: number } = {};

  /** Writes one object to the store, with a new body per attempt (a stream is read once), retried as storeRetry says. */
  protected async putFile(key: string, makeBody: () => Readable | Buffer, options: { contentType?: string; size?: number } = {}): Promise<void> {
    await putWithRetries(await this.store, key, makeBody, {
      ...options,
      attempts: this.storeRetry.attempts,
      firstDelayMs: this.storeRetry.firstDelayMs,
      onRetry: (attempt, error) => {
        this.crawler?.stats.inc('file_store_retry_count');
        this.logger.info(`Retrying to store ${key} (attempt ${attempt} failed: ${error.message})`);
      },
    });
  }

  /** Sets FILES_RESULT_FIELD to the stored files, in the order of the URLs, and passes the item on. */
  itemCompleted(results: MediaResult[], item: Item, _info: MediaInfo): Item | Promise<Item> {
    setMediaResults(item, this.filesResultField, results.filter((r): r is [true, FileResult] => r[0]).map((r) => r[1]));
    return item;
  }

  /** Where a URL's file is stored: `full/<sha1 of the URL><ext>`, Scrapy's extension rule. */
  filePath(request: Request, _response?: Response, _info?: MediaInfo, _options: MediaItemOption = {}): string {
    return scrapyFilePath(request.url);
  }
}

/** Scrapy's SequenceExclude(range(300, 400)): every status but the redirects, which the redirect middleware then follows. */
const ALL_BUT_REDIRECTS = [...Array.from({ length: 200 }, (_, i) => 100 + i), ...Array.from({ length: 200 }, (_, i) => 400 + i)];
