/**
 * Feeds in a whole crawl (CrawlerImpl through crawl()): the `feeds` option
 * and the FEEDS setting together, the `Stored` line in Scrapy's place in
 * the close sequence, a bad feed failing the run before any request, and
 * a feed that fails mid-crawl or at close costing the other feeds nothing.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { Spider, crawl, type Response } from '../../src/index.js';
import { JsonLinesExporter } from '../../src/feeds/index.js';
import { quotesSite, startSite, type TestSite } from '../helpers/site-server.js';

let site: TestSite;
let dir: string;
beforeAll(async () => {
  site = await startSite(quotesSite(2));
});
afterAll(async () => site.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-crawl-feeds-'));
  site.reset();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

class Quote {
  constructor(
    readonly text: string | null,
    readonly author: string | null,
  ) {}
}

function spiderClass() {
  return class QuotesSpider extends Spider {
    static override name = 'quotes';
    override startUrls = [site.url('/page/1/')];

    override *parse(response: Response) {
      for (const quote of response.css('div.quote')) yield new Quote(quote.css('span.text::text').get(), quote.css('small.author::text').get());
      const next = response.css('li.next a::attr(href)').get();
      if (next !== null) yield response.follow(next, this.parse);
    }
  };
}

const QUIET = { TELNETCONSOLE_ENABLED: false, LOG_LEVEL: 'INFO' };

describe('feeds in a crawl', () => {
  it('writes a code feed and the FEEDS feeds, and logs Stored between Closing spider and the stats dump', async () => {
    const xml = join(dir, '%(name)s.xml');
    const run = crawl(spiderClass(), {
      settings: { ...QUIET, FEEDS: { [xml]: { format: 'xml' }, [join(dir, 'items.csv')]: { format: 'csv' } } },
      feeds: [{ path: join(dir, 'items.json'), overwrite: true }],
    });
    const messages = (await lastValueFrom(run.logs$.pipe(toArray()))).map((l) => `[${l.logger}] ${l.message.split('\n')[0]}`);
    expect(JSON.parse(readFileSync(join(dir, 'items.json'), 'utf8'))).toEqual([
      { text: 'Quote 1.1', author: 'Author 1' }, { text: 'Quote 1.2', author: 'Author 2' },
      { text: 'Quote 2.1', author: 'Author 1' }, { text: 'Quote 2.2', author: 'Author 2' },
    ]);
    expect(readFileSync(join(dir, 'items.csv'), 'utf8')).toBe('text,author\r\nQuote 1.1,Author 1\r\nQuote 1.2,Author 2\r\nQuote 2.1,Author 1\r\nQuote 2.2,Author 2\r\n');
    expect(readFileSync(join(dir, 'quotes.xml'), 'utf8')).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n<items>\n' +
        [1, 2].flatMap((p) => [1, 2].map((i) => `<item><text>Quote ${p}.${i}</text><author>Author ${i}</author></item>\n`)).join('') +
        '</items>',
    );
    const tail = messages.slice(messages.indexOf('[seine.core.engine] Closing spider (finished)'));
    expect(tail.slice(0, 5)).toEqual([
      '[seine.core.engine] Closing spider (finished)',
      `[seine.extensions.feedexport] Stored json feed (4 items) in: ${join(dir, 'items.json')}`,
      `[seine.extensions.feedexport] Stored xml feed (4 items) in: ${join(dir, 'quotes.xml')}`,
      `[seine.extensions.feedexport] Stored csv feed (4 items) in: ${join(dir, 'items.csv')}`,
      '[seine.statscollectors] Dumping seine stats:',
    ]);
    expect(run.stats?.get('feedexport/success_count/FileFeedStorage')).toBe(3);
  });

  it('a feed in a missing folder fails the run before any request is made', async () => {
    const run = crawl(spiderClass(), { settings: QUIET, feeds: [{ path: join(dir, 'missing', 'items.jsonl'), overwrite: true }] });
    await expect(lastValueFrom(run.items$.pipe(toArray()))).rejects.toThrow(
      `Cannot write the feed '${join(dir, 'missing', 'items.jsonl')}': the folder '${join(dir, 'missing')}' does not exist (check that the folder exists and is writable, or choose another -o/-O path)`,
    );
    expect(site.hits).toEqual([]);
  });

  it('a folder removed mid-crawl and exporters that throw: one ERROR line each, the other feeds stored, the crawl finishes', async () => {
    class PickyExporter extends JsonLinesExporter {
      override exportItem(item: unknown): Buffer {
        if ((item as Quote).text === 'Quote 1.2') throw new Error('not this one');
        return super.exportItem(item);
      }
    }
    class UnfinishedExporter extends JsonLinesExporter {
      override finish(): Buffer {
        throw new Error('no end');
      }
    }
    mkdirSync(join(dir, 'gone'));
    const Base = spiderClass();
    class RemovingSpider extends Base {
      static override name = 'removing';
      override *parse(response: Response) {
        if (response.url.endsWith('/page/2/')) rmSync(join(dir, 'gone'), { recursive: true });
        yield* super.parse(response);
      }
    }
    const run = crawl(RemovingSpider, {
      settings: {
        ...QUIET,
        FEED_EXPORTERS: { picky: PickyExporter, unfinished: UnfinishedExporter },
        FEEDS: {
          [join(dir, 'gone', 'items.json')]: { format: 'json', overwrite: true },
          [join(dir, 'items.picky')]: { format: 'picky' },
          [join(dir, 'items.unfinished')]: { format: 'unfinished' },
          [join(dir, 'items.csv')]: { format: 'csv' },
        },
      },
    });
    const lines = (await lastValueFrom(run.logs$.pipe(toArray()))).map((l) => `${l.level}: [${l.logger}] ${l.message}`);
    expect(lines.filter((l) => l.startsWith('ERROR') || l.includes('[seine.extensions.feedexport]'))).toEqual([
      `ERROR: [seine.extensions.feedexport] Error exporting an item to the picky feed ${join(dir, 'items.picky')}: PickyExporter.exportItem() threw Error: not this one`,
      `ERROR: [seine.extensions.feedexport] Error storing json feed (4 items) in: ${join(dir, 'gone', 'items.json')}: the folder '${join(dir, 'gone')}' was removed during the crawl`,
      `INFO: [seine.extensions.feedexport] Stored picky feed (3 items) in: ${join(dir, 'items.picky')}`,
      `ERROR: [seine.extensions.feedexport] Error storing unfinished feed (4 items) in: ${join(dir, 'items.unfinished')}: UnfinishedExporter.finish() threw Error: no end`,
      `INFO: [seine.extensions.feedexport] Stored csv feed (4 items) in: ${join(dir, 'items.csv')}`,
    ]);
    expect(lines).toContain('INFO: [seine.core.engine] Spider closed (finished)');
    expect(readFileSync(join(dir, 'items.csv'), 'utf8')).toBe('text,author\r\nQuote 1.1,Author 1\r\nQuote 1.2,Author 2\r\nQuote 2.1,Author 1\r\nQuote 2.2,Author 2\r\n');
    expect(readFileSync(join(dir, 'items.picky'), 'utf8').split('\n').map((l) => (l === '' ? l : JSON.parse(l).text))).toEqual(['Quote 1.1', 'Quote 2.1', 'Quote 2.2', '']);
    expect(readdirSync(dir).sort()).toEqual(['items.csv', 'items.picky', 'items.unfinished']);
    expect(run.stats?.get('feedexport/success_count/FileFeedStorage')).toBe(2);
    expect(run.stats?.get('feedexport/failed_count/FileFeedStorage')).toBe(2);
  });
});
