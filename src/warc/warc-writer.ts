/**
 * The WarcWriter extension (WARC_ENABLED): every response seine downloads —
 * the `response_downloaded` event, which responses from the HTTP cache never
 * raise — is written with its request to WARC_DIR as WARC 1.1 records
 * (docs/warc.md). Captures are taken when the event fires, so the request is
 * the one the downloader middlewares sent; they are serialized and written
 * one after another, in download order, and the crawl's close waits for the
 * last one.
 */
import { copyFileSync, linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Subscription } from 'rxjs';
import type { Extension } from '../contracts/components.js';
import { NotConfigured } from '../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { CrawlEvent } from '../contracts/events.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Logger } from '../log/index.js';
import { findPackageVersion, SEINE_VERSION } from '../version.js';
import { captureDownload, captureRendered, type Capture } from './capture.js';
import { takeNetworkExchange, takeWireResponse } from './network-exchange.js';
import { WarcFiles } from './warc-files.js';
import { captureRecords, loadWarcio, warcinfoRecord, type SerializedRecord, type Warcio } from './warc-records.js';
import { WarcDirError } from './warc-dir-error.js';
import { SettingsError } from '../settings/settings-error.js';

export const WARC_LOGGER = 'seine.warc';

export interface WarcWriterOptions {
  readonly dir: string;
  readonly maxSize: number;
  /** COMPRESSION_ENABLED: the client asked for compressed bodies (its Accept-Encoding is recorded). */
  readonly compression: boolean;
  /** The warcinfo fields besides software and format. */
  readonly info: Record<string, string>;
  readonly stats: StatsCollector;
  readonly logger: Logger;
  readonly now?: () => Date;
}

const ARCHIVED_SCHEMES = /^https?:/i;

export class WarcWriter implements Extension {
  readonly #options: WarcWriterOptions;
  readonly #now: () => Date;
  #files: WarcFiles | null = null;
  #warcio: Warcio | null = null;
  #writing: Promise<void> = Promise.resolve();
  #failed = false;
  #kept = 0;
  #subscription: Subscription | undefined;

  constructor(options: WarcWriterOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  static fromCrawler(crawler: Pick<Crawler, 'settings' | 'stats' | 'logBus' | 'events$'>): WarcWriter {
    const { settings } = crawler;
    if (!settings.getBool('WARC_ENABLED')) throw new NotConfigured('WARC_ENABLED is off');
    const maxSize = settings.getInt('WARC_MAX_SIZE');
    if (maxSize < 0) throw new SettingsError(`WARC_MAX_SIZE must be 0 (no limit) or a number of bytes, got ${maxSize}`);
    const writer = new WarcWriter({
      dir: settings.get('WARC_DIR'),
      maxSize,
      compression: settings.getBool('COMPRESSION_ENABLED'),
      info: {
        robots: settings.getBool('ROBOTSTXT_OBEY') ? 'obey' : 'ignore',
        'http-header-user-agent': settings.get('USER_AGENT'),
      },
      stats: crawler.stats,
      logger: crawler.logBus.getLogger(WARC_LOGGER),
    });
    writer.#subscription = crawler.events$.subscribe((event) => writer.handle(event));
    return writer;
  }

  /** Loads warcio and opens the first file: a WARC_DIR that cannot be written stops the crawl here. */
  async openSpider(spider: { name: string }): Promise<void> {
    const warcio = loadWarcio();
    this.#warcio = warcio;
    const { dir, maxSize, stats, logger, info } = this.#options;
    const software = `seine/${SEINE_VERSION} (warcio.js/${findPackageVersion('warcio') ?? 'unknown'})`;
    const files = new WarcFiles({
      dir,
      prefix: spider.name,
      maxSize,
      now: this.#now,
      warcinfo: (filename) =>
        warcinfoRecord(warcio, filename, { software, format: 'WARC File Format 1.1', conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/', isPartOf: spider.name, ...info }, this.#now()),
      onFile: (filename) => {
        stats.inc('warc/files');
        logger.info(`Writing WARC records to ${join(dir, filename)}`);
      },
      onRecord: (_record: SerializedRecord, length: number) => {
        stats.inc('warc/records');
        stats.inc('warc/bytes', length);
      },
    });
    await files.open();
    this.#files = files;
  }

  handle(event: CrawlEvent): void {
    if (event.type === 'response_downloaded') this.archive(event.request, event.response);
    else if (event.type === 'spider_closed') this.#subscription?.unsubscribe();
  }

  /** Takes the capture now (the request as it was sent) and queues its writing. */
  archive(request: Request, response: Response): void {
    const files = this.#files;
    const warcio = this.#warcio;
    if (files === null || warcio === null || this.#failed || !ARCHIVED_SCHEMES.test(response.url)) return;
    let capture: Capture | null;
    try {
      capture = this.#capture(request, response);
    } catch (error) {
      // The body file of a media download vanished before it could be kept: that download alone is not archived.
      this.#options.stats.inc('warc/skipped');
      this.#options.logger.warning(`Not archived in the WARC file: ${response.url}: ${(error as Error).message}`);
      return;
    }
    if (capture === null) return;
    this.#writing = this.#writing.then(async () => {
      try {
        if (!this.#failed) await files.write(await captureRecords(warcio, capture));
      } catch (error) {
        // A full disk or a vanished folder: one ERROR, and the crawl goes on without its archive.
        this.#failed = true;
        this.#options.stats.inc('warc/errors');
        this.#options.logger.error(`WARC writing stopped: ${error instanceof WarcDirError ? error.message : `could not write to ${this.#options.dir}: ${(error as Error).message}`}`);
      } finally {
        if (capture.responseBodyFile !== null) rmSync(capture.responseBodyFile.path, { force: true });
      }
    });
  }

  #capture(request: Request, response: Response): Capture | null {
    const date = this.#now();
    if (response.flags.includes('playwright')) {
      const exchange = takeNetworkExchange(response);
      return exchange === undefined ? null : captureRendered(exchange, response, { date });
    }
    return captureDownload(request, response, { compression: this.#options.compression, date, wire: takeWireResponse(response) ?? null, bodyFile: this.#keepBodyFile(response) });
  }

  /**
   * A body streamed to a temporary file (the media pipelines' downloads) is
   * removed by the pipeline once stored, perhaps before its record is
   * written: a hard link beside it (a copy where links are refused) keeps
   * the bytes for the archive, without reading them into memory.
   */
  #keepBodyFile(response: Response): { path: string; size: number } | null {
    const bodyFile = response.bodyFile;
    if (bodyFile === null) return null;
    const kept = `${bodyFile.path}.warc-${++this.#kept}`;
    try {
      linkSync(bodyFile.path, kept);
    } catch {
      copyFileSync(bodyFile.path, kept);
    }
    return { path: kept, size: bodyFile.size };
  }

  /** Waits for the captures still being written, then fsyncs and closes the file. */
  async closeSpider(): Promise<void> {
    await this.#writing;
    this.#files?.close();
  }
}
