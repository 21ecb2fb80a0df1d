import { existsSync, readFileSync, renameSync } from 'node:fs';
import { makePrivateDirSync, writePrivateFileSync } from '../private-files.js';
import { join } from 'node:path';
import type { Extension } from '../contracts/components.js';
import { NotConfigured } from '../contracts/control-flow.js';
import type { Crawler } from '../contracts/crawler.js';
import { getLogger, type Logger } from '../log/index.js';
import type { Spider } from '../contracts/spider.js';
import { JobdirError } from '../scheduler/jobdir-errors.js';
import { jobdirSetting } from '../scheduler/jobdir-setting.js';

export const STATE_FILE = 'spider.state';
export const SPIDER_STATE_LOGGER = 'seine.extensions.spiderstate';

/**
 * Scrapy's SpiderState: with JOBDIR, `spider.state` (a plain object) is
 * read from `<JOBDIR>/spider.state` when the spider opens (`{}` the first
 * time) and written there when it closes, so a resumed crawl carries it on.
 * Scrapy pickles it; seine writes JSON, so it holds JSON values.
 * NotConfigured without JOBDIR.
 */
export class SpiderState implements Extension {
  readonly file: string;
  readonly #logger: Logger;

  constructor(
    readonly jobdir: string,
    logger?: Logger,
  ) {
    this.file = join(jobdir, STATE_FILE);
    this.#logger = logger ?? getLogger(SPIDER_STATE_LOGGER);
  }

  static fromCrawler(crawler: Pick<Crawler, 'settings' | 'logBus'>): SpiderState {
    const jobdir = jobdirSetting(crawler.settings);
    if (jobdir === null) throw new NotConfigured('JOBDIR is not set');
    return new SpiderState(jobdir, crawler.logBus.getLogger(SPIDER_STATE_LOGGER));
  }

  openSpider(spider: Spider): void {
    if (!existsSync(this.file)) {
      spider.state = {};
      return;
    }
    let state: unknown;
    try {
      state = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch (error) {
      throw new JobdirError(`Cannot read the spider state ${this.file}: ${(error as Error).message} (fix or delete the file)`, { cause: error });
    }
    if (typeof state !== 'object' || state === null || Array.isArray(state)) {
      throw new JobdirError(`The spider state ${this.file} is not a JSON object (fix or delete the file)`);
    }
    spider.state = state as Record<string, unknown>;
  }

  /**
   * Saves the state. A state that cannot be saved is logged as an ERROR and
   * the crawl still closes normally (the previous file is kept), as a failing
   * spider_closed handler is in Scrapy.
   */
  closeSpider(spider: Spider): void {
    try {
      let json: string;
      try {
        json = JSON.stringify(spider.state ?? {});
      } catch (error) {
        throw new JobdirError(`Cannot save spider.state to ${this.file}: ${(error as Error).message} (keep JSON values in spider.state)`, { cause: error });
      }
      makePrivateDirSync(this.jobdir);
      // Written aside, then renamed: a crash while writing keeps the previous state.
      const temporary = `${this.file}.tmp`;
      writePrivateFileSync(temporary, json + '\n');
      renameSync(temporary, this.file);
    } catch (error) {
      this.#logger.error(error instanceof JobdirError ? error.message : `Cannot save spider.state to ${this.file}: ${(error as Error).message}`);
    }
  }
}
