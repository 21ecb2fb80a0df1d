import { describe, expect, it } from '@jest/globals';
import { Request } from '../../../src/http/request.js';
import { DownloadTimeoutMiddleware } from '../../../src/middlewares/downloader/download-timeout.js';
import { Spider } from '../../../src/contracts/spider.js';
import { TestSpider, fakeCrawler } from '../../helpers/fake-crawler.js';

class SlowSpider extends Spider {
  static override name = 'slow';
  downloadTimeout = 7.5;
}

function timeoutOf(mw: DownloadTimeoutMiddleware, spider: Spider, request = new Request('http://a.test/')): unknown {
  mw.processRequest(request, spider);
  return request.meta.download_timeout;
}

describe('DownloadTimeoutMiddleware', () => {
  it('sets meta.download_timeout from DOWNLOAD_TIMEOUT (seconds)', () => {
    const crawler = fakeCrawler({ DOWNLOAD_TIMEOUT: '12.5' });
    expect(timeoutOf(DownloadTimeoutMiddleware.fromCrawler(crawler), crawler.spider)).toBe(12.5);
    const defaults = fakeCrawler();
    expect(timeoutOf(DownloadTimeoutMiddleware.fromCrawler(defaults), defaults.spider)).toBe(180);
  });

  it("prefers the spider's downloadTimeout attribute", () => {
    const spider = new SlowSpider();
    const mw = DownloadTimeoutMiddleware.fromCrawler(fakeCrawler({ DOWNLOAD_TIMEOUT: 30 }, spider));
    mw.openSpider(spider);
    expect([mw.timeout, timeoutOf(mw, spider)]).toEqual([7.5, 7.5]);
  });

  it('keeps a download_timeout the request already has', () => {
    const request = new Request('http://a.test/', { meta: { download_timeout: 1 } });
    expect(timeoutOf(new DownloadTimeoutMiddleware({ timeout: 60 }), new TestSpider(), request)).toBe(1);
  });

  it('sets nothing when the timeout is 0', () => {
    const request = new Request('http://a.test/');
    timeoutOf(new DownloadTimeoutMiddleware({ timeout: 0 }), new TestSpider(), request);
    expect('download_timeout' in request.meta).toBe(false);
  });
});
