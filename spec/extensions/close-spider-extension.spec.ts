import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { NotConfigured } from '../../src/contracts/control-flow.js';
import type { CrawlEvent } from '../../src/contracts/events.js';
import { CloseSpiderExtension } from '../../src/extensions/close-spider-extension.js';
import { Request } from '../../src/http/request.js';
import { SettingsError } from '../../src/settings/settings-error.js';
import { Spider } from '../../src/contracts/spider.js';
import { fakeCrawler } from '../helpers/fake-crawler.js';

const request = new Request('http://a/');
const response = {} as never;
const item: CrawlEvent = { type: 'item_scraped', item: {}, response };
const page: CrawlEvent = { type: 'response_received', request, response };
const error: CrawlEvent = { type: 'spider_error', error: new Error('boom'), response };
const opened: CrawlEvent = { type: 'spider_opened', spider: new Spider() };
const closed: CrawlEvent = { type: 'spider_closed', reason: 'finished' };

const testScheduler = (): TestScheduler => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

function counting(options: { itemCount?: number; pageCount?: number; errorCount?: number }) {
  const reasons: string[] = [];
  const extension = new CloseSpiderExtension({ ...options, close: (reason) => reasons.push(reason) });
  return { extension, reasons };
}

describe('CloseSpiderExtension counts', () => {
  it('closes with closespider_itemcount when the item count reaches CLOSESPIDER_ITEMCOUNT, once', () => {
    const { extension, reasons } = counting({ itemCount: 3 });
    extension.handle(item);
    extension.handle(item);
    expect(reasons).toEqual([]);
    extension.handle(item);
    expect(reasons).toEqual(['closespider_itemcount']);
    extension.handle(item);
    extension.handle(item);
    expect(reasons).toEqual(['closespider_itemcount']);
  });

  it('closes with closespider_pagecount on the CLOSESPIDER_PAGECOUNT-th response', () => {
    const { extension, reasons } = counting({ pageCount: 2 });
    extension.handle(item);
    extension.handle(page);
    expect(reasons).toEqual([]);
    extension.handle(page);
    expect(reasons).toEqual(['closespider_pagecount']);
  });

  it('closes with closespider_errorcount on the CLOSESPIDER_ERRORCOUNT-th callback error', () => {
    const { extension, reasons } = counting({ errorCount: 1 });
    extension.handle(page);
    extension.handle(error);
    expect(reasons).toEqual(['closespider_errorcount']);
  });

  it('reports only the first limit reached', () => {
    const { extension, reasons } = counting({ itemCount: 2, pageCount: 2 });
    extension.handle(page);
    extension.handle(item);
    extension.handle(item);
    extension.handle(page);
    expect(reasons).toEqual(['closespider_itemcount']);
  });

  it('ignores counts whose limit is 0', () => {
    const { extension, reasons } = counting({ itemCount: 0, pageCount: 0, errorCount: 5 });
    for (let i = 0; i < 10; i++) {
      extension.handle(item);
      extension.handle(page);
    }
    expect(reasons).toEqual([]);
  });
});

describe('CloseSpiderExtension timeout', () => {
  it('closes with closespider_timeout CLOSESPIDER_TIMEOUT seconds after spider_opened', () => {
    const scheduler = testScheduler();
    const at: Array<[number, string]> = [];
    scheduler.run(() => {
      const extension = new CloseSpiderExtension({ timeoutSeconds: 2.5, close: (reason) => at.push([scheduler.now(), reason]), scheduler });
      scheduler.schedule(() => {
        extension.openSpider();
        extension.handle(opened); // the hook and the event start one timer between them
      }, 1_000);
    });
    expect(at).toEqual([[3_500, 'closespider_timeout']]);
  });

  it('does not fire after the spider closed', () => {
    const scheduler = testScheduler();
    const reasons: string[] = [];
    scheduler.run(() => {
      const extension = new CloseSpiderExtension({ timeoutSeconds: 10, close: (reason) => reasons.push(reason), scheduler });
      extension.handle(opened);
      scheduler.schedule(() => extension.handle(closed), 9_999);
    });
    expect(reasons).toEqual([]);
  });

  it('cancels the timeout when a count closes the spider first', () => {
    const scheduler = testScheduler();
    const reasons: Array<[number, string]> = [];
    scheduler.run(() => {
      const extension = new CloseSpiderExtension({ timeoutSeconds: 10, itemCount: 1, close: (reason) => reasons.push([scheduler.now(), reason]), scheduler });
      extension.handle(opened);
      scheduler.schedule(() => extension.handle(item), 4_000);
    });
    expect(reasons).toEqual([[4_000, 'closespider_itemcount']]);
  });
});

describe('CloseSpiderExtension.fromCrawler', () => {
  it("counts the crawler's events and calls crawler.close", () => {
    const crawler = fakeCrawler({ CLOSESPIDER_PAGECOUNT: '2' });
    CloseSpiderExtension.fromCrawler(crawler);
    crawler.emit(opened);
    crawler.emit(page);
    crawler.emit(page);
    crawler.emit(page);
    expect(crawler.closed).toEqual(['closespider_pagecount']);
  });

  it('stops counting at spider_closed', () => {
    const crawler = fakeCrawler({ CLOSESPIDER_ITEMCOUNT: 1 });
    const extension = CloseSpiderExtension.fromCrawler(crawler);
    extension.closeSpider();
    crawler.emit(item);
    expect(crawler.closed).toEqual([]);
  });

  it('reads CLOSESPIDER_TIMEOUT as seconds, fractions included', () => {
    const scheduler = testScheduler();
    const crawler = fakeCrawler({ CLOSESPIDER_TIMEOUT: '0.25' });
    const at: number[] = [];
    scheduler.run(() => {
      CloseSpiderExtension.fromCrawler({ ...crawler, close: (reason) => { at.push(scheduler.now()); crawler.close(reason); } }, { scheduler });
      crawler.emit(opened);
    });
    expect(crawler.closed).toEqual(['closespider_timeout']);
    expect(at).toEqual([250]);
  });

  it('is off (NotConfigured) when every CLOSESPIDER_* setting is 0', () => {
    expect(() => CloseSpiderExtension.fromCrawler(fakeCrawler())).toThrow(NotConfigured);
  });

  it.each([
    ['CLOSESPIDER_ITEMCOUNT', -1],
    ['CLOSESPIDER_PAGECOUNT', -1],
    ['CLOSESPIDER_ERRORCOUNT', -1],
    ['CLOSESPIDER_TIMEOUT', -1],
  ])('rejects %s=%j, saying 0 turns the limit off', (name, value) => {
    const crawler = fakeCrawler({ [name]: value });
    expect(() => CloseSpiderExtension.fromCrawler(crawler)).toThrow(SettingsError);
    expect(() => CloseSpiderExtension.fromCrawler(crawler)).toThrow(
      `Setting ${name} must be at least 0, got -1 (from -s ${name}=-1): use 0 to turn this limit off`,
    );
  });
});
