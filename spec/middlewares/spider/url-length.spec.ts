import { describe, expect, it } from '@jest/globals';
import { NotConfigured } from '../../../src/contracts/control-flow.js';
import { Request } from '../../../src/http/request.js';
import { UrlLengthMiddleware } from '../../../src/middlewares/spider/url-length.js';
import { TestSpider, fakeCrawler } from '../../helpers/fake-crawler.js';
import { collect, outputs, responseFor } from '../../helpers/spider-output.js';

const spider = new TestSpider();

describe('UrlLengthMiddleware', () => {
  it('drops requests with URLs longer than URLLENGTH_LIMIT with an INFO line and a count', async () => {
    const crawler = fakeCrawler({ URLLENGTH_LIMIT: 26 });
    const ok = new Request('http://example.com/1234567'); // 26 characters
    const long = new Request('http://example.com/12345678');
    const item = { a: 1 };
    const result = await collect(UrlLengthMiddleware.fromCrawler(crawler).processSpiderOutput(responseFor('http://example.com/'), outputs(ok, long, item), spider));
    expect(result).toEqual([ok, item]);
    expect(crawler.textLines()).toEqual(['INFO [seine.spidermiddlewares.urllength] Ignoring link (url length > 26): http://example.com/12345678']);
    expect(crawler.stats.getAll()).toEqual({ 'urllength/request_ignored_count': 1 });
  });

  it('defaults to 2083 characters, as Scrapy', async () => {
    expect(new UrlLengthMiddleware().maxLength).toBe(2083);
    expect(UrlLengthMiddleware.fromCrawler(fakeCrawler()).maxLength).toBe(2083);
    const long = new Request(`http://example.com/${'a'.repeat(2100)}`);
    expect(await collect(new UrlLengthMiddleware().processSpiderOutput(responseFor('http://example.com/'), outputs(long), spider))).toEqual([]);
  });

  it('switches itself off when URLLENGTH_LIMIT is 0', () => {
    expect(() => UrlLengthMiddleware.fromCrawler(fakeCrawler({ URLLENGTH_LIMIT: 0 }))).toThrow(NotConfigured);
  });
});
