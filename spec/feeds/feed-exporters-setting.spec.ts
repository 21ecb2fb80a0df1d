/**
 * FEED_EXPORTERS in whole crawls: a project's own format (an exporter class
 * given in the settings or a spider's customSettings), a built-in format
 * replaced, a built-in exporter under another name, and a format disabled
 * with null.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { FeedConfigError, Spider, crawl, type ExporterOptions, type ItemExporter, type Response } from '../../src/index.js';
import { EXPORTERS, feedFormats, type FeedSpec } from '../../src/feeds/index.js';
import { Settings } from '../../src/settings/index.js';
import { FeedOptionError, parseFeedOption } from '../../src/cli/feed-option.js';
import { quotesSite, startSite, type TestSite } from '../helpers/site-server.js';

let site: TestSite;
let dir: string;
beforeAll(async () => {
  site = await startSite(quotesSite(2));
});
afterAll(async () => site.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-feed-exporters-'));
  site.reset();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A format of the project's own: a numbered line per item, `fields` respected, a header and a footer. */
class TextExporter implements ItemExporter {
  #count = 0;
  constructor(readonly options: ExporterOptions) {}

  start(): Buffer {
    return Buffer.from(`# ${this.options.feed}\n`);
  }

  exportItem(item: unknown): Buffer {
    const record = item as Record<string, unknown>;
    const fields = Array.isArray(this.options.fields) ? (this.options.fields as string[]) : Object.keys(record);
    return Buffer.from(`${++this.#count}. ${fields.map((field) => String(record[field])).join(' | ')}\n`);
  }

  finish(): Buffer {
    return Buffer.from(`# ${this.#count} items\n`);
  }
}

/** Replaces the built-in json format: an object keyed by position instead of an array. */
class KeyedJsonExporter implements ItemExporter {
  #index = 0;
  start = (): Buffer => Buffer.from('{');
  exportItem = (item: unknown): Buffer => Buffer.from(`${this.#index === 0 ? '' : ','}"${this.#index++}":${JSON.stringify(item)}`);
  finish = (): Buffer => Buffer.from('}');
}

function spiderClass(customSettings?: Record<string, unknown>) {
  return class QuotesSpider extends Spider {
    static override name = 'quotes';
    static override customSettings = customSettings;
    override startUrls = [site.url('/page/1/')];

    override *parse(response: Response) {
      for (const quote of response.css('div.quote')) yield { text: quote.css('span.text::text').get(), author: quote.css('small.author::text').get() };
      const next = response.css('li.next a::attr(href)').get();
      if (next !== null) yield response.follow(next, this.parse);
    }
  };
}

const QUIET = { TELNETCONSOLE_ENABLED: false, LOG_LEVEL: 'INFO' };

async function run(spider: ReturnType<typeof spiderClass>, options: Parameters<typeof crawl>[1]): Promise<string[]> {
  const logs = await lastValueFrom(crawl(spider, options).logs$.pipe(toArray()));
  return logs.map((l) => `[${l.logger}] ${l.message.split('\n')[0]}`);
}

const read = (name: string): string => readFileSync(join(dir, name), 'utf8');

describe('FEED_EXPORTERS', () => {
  it("writes a FEEDS feed in a format of the spider's customSettings, as its exporter decides", async () => {
    const spider = spiderClass({ FEED_EXPORTERS: { txt: TextExporter }, FEEDS: { [join(dir, 'items.txt')]: { format: 'txt', fields: ['author', 'text'] } } });
    const messages = await run(spider, { settings: QUIET });
    expect(read('items.txt')).toBe(
      `# ${join(dir, 'items.txt')}\n1. Author 1 | Quote 1.1\n2. Author 2 | Quote 1.2\n3. Author 1 | Quote 2.1\n4. Author 2 | Quote 2.2\n# 4 items\n`,
    );
    expect(messages).toContain(`[seine.extensions.feedexport] Stored txt feed (4 items) in: ${join(dir, 'items.txt')}`);
  });

  it('takes the format from the extension when it names a FEED_EXPORTERS format, for FEEDS and for -o', async () => {
    const settings = { ...QUIET, FEED_EXPORTERS: { txt: TextExporter }, FEEDS: { [join(dir, 'feeds.txt')]: {} } };
    await run(spiderClass(), { settings, feeds: [parseFeedOption(join(dir, 'option.txt'), true)] });
    expect(read('feeds.txt').split('\n').slice(1, 3)).toEqual(['1. Quote 1.1 | Author 1', '2. Quote 1.2 | Author 2']);
    expect(read('option.txt')).toBe(read('feeds.txt').replace('feeds.txt', 'option.txt'));
  });

  it('replaces a built-in format: json written by the project’s exporter, the other formats untouched', async () => {
    await run(spiderClass(), {
      settings: { ...QUIET, FEED_EXPORTERS: { json: KeyedJsonExporter } },
      feeds: [{ path: join(dir, 'items.json'), overwrite: true }, { path: join(dir, 'items.jsonl'), overwrite: true }],
    });
    expect(JSON.parse(read('items.json'))).toEqual({
      0: { text: 'Quote 1.1', author: 'Author 1' }, 1: { text: 'Quote 1.2', author: 'Author 2' },
      2: { text: 'Quote 2.1', author: 'Author 1' }, 3: { text: 'Quote 2.2', author: 'Author 2' },
    });
    expect(read('items.jsonl').split('\n')[0]).toBe('{"text": "Quote 1.1", "author": "Author 1"}');
  });

  it("serves a built-in exporter under another format name, given by the exporter's name (also from -s JSON)", async () => {
    await run(spiderClass(), {
      settings: { ...QUIET, FEED_EXPORTERS: '{"table": "CsvItemExporter"}' },
      feeds: [{ path: join(dir, 'items.table'), overwrite: true }],
    });
    expect(read('items.table').split('\r\n').slice(0, 2)).toEqual(['text,author', 'Quote 1.1,Author 1']);
  });

  it('null disables a built-in format: a feed in it fails the run before any request, and -o says so', async () => {
    const settings = { ...QUIET, FEED_EXPORTERS: { csv: null } };
    const failure = (feeds: FeedSpec[]): Promise<unknown> => lastValueFrom(crawl(spiderClass(), { settings, feeds }).items$).catch((error: unknown) => error);
    const fromCode = await failure([{ path: join(dir, 'items.csv') }]);
    expect(fromCode).toBeInstanceOf(FeedConfigError);
    expect((fromCode as Error).message).toBe(`The feed format 'csv' of the feed '${join(dir, 'items.csv')}' is disabled (FEED_EXPORTERS sets it to null): use one of json, jsonlines, jsonl, jl, xml`);
    const option = join(dir, 'items.out:csv');
    const fromOption = await failure([parseFeedOption(option)]);
    expect(fromOption).toBeInstanceOf(FeedOptionError);
    expect((fromOption as Error).message).toBe(`The feed format 'csv' in '${option}' is disabled (FEED_EXPORTERS sets it to null): use one of json, jsonlines, jsonl, jl, xml`);
    expect(site.hits).toEqual([]);
  });

  it("lists the project's formats when a FEEDS format is unknown", async () => {
    const spider = spiderClass({ FEED_EXPORTERS: { txt: TextExporter }, FEEDS: { [join(dir, 'items.yaml')]: { format: 'yaml' } } });
    await expect(lastValueFrom(crawl(spider, { settings: QUIET }).items$)).rejects.toThrow(
      `Unknown feed format 'yaml' for the feed '${join(dir, 'items.yaml')}': use one of json, jsonlines, jsonl, jl, csv, xml, txt`,
    );
    expect(site.hits).toEqual([]);
  });

  it.each([
    [{ txt: 'TextExporter' }, "FEED_EXPORTERS maps the format 'txt' to 'TextExporter'"],
    [{ txt: 42 }, "FEED_EXPORTERS maps the format 'txt' to 42"],
  ])('refuses %j: neither a class, a built-in name nor null', async (exporters, start) => {
    const feeds = [{ path: join(dir, 'items.jsonl') }];
    await expect(lastValueFrom(crawl(spiderClass(), { settings: { ...QUIET, FEED_EXPORTERS: exporters }, feeds }).items$)).rejects.toThrow(
      `${start}: give an exporter class (one with start(), exportItem() and finish(), see docs/feeds.md), ` +
        "a built-in exporter's name (JsonItemExporter, JsonLinesItemExporter, CsvItemExporter, XmlItemExporter), or null to disable the format",
    );
    expect(site.hits).toEqual([]);
  });

  it('resolves FEED_EXPORTERS_BASE to the built-in exporters, with nothing disabled', () => {
    const formats = feedFormats(new Settings());
    expect(Object.fromEntries(formats.exporters)).toEqual(EXPORTERS);
    expect([...formats.disabled]).toEqual([]);
  });
});
