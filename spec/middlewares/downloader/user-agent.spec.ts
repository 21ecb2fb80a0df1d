import { describe, expect, it } from '@jest/globals';
import { Request } from '../../../src/http/request.js';
import { UserAgentMiddleware } from '../../../src/middlewares/downloader/user-agent.js';
import { DEFAULT_SETTINGS } from '../../../src/settings/index.js';
import { Spider } from '../../../src/contracts/spider.js';
import { TestSpider, fakeCrawler } from '../../helpers/fake-crawler.js';

class BotSpider extends Spider {
  static override name = 'bot';
  userAgent = 'spider-bot/1.0';
}

function userAgentOf(mw: UserAgentMiddleware, spider: Spider, request = new Request('http://a.test/')): string | null {
  mw.processRequest(request, spider);
  return request.headers.get('User-Agent');
}

describe('UserAgentMiddleware', () => {
  it('sends USER_AGENT', () => {
    const crawler = fakeCrawler({ USER_AGENT: 'my-bot/2' });
    expect(userAgentOf(UserAgentMiddleware.fromCrawler(crawler), crawler.spider)).toBe('my-bot/2');
  });

  it("sends seine's default User-Agent by default", () => {
    const crawler = fakeCrawler();
    expect(userAgentOf(UserAgentMiddleware.fromCrawler(crawler), crawler.spider)).toBe(DEFAULT_SETTINGS.USER_AGENT);
  });

  it("prefers the spider's userAgent attribute, from the time the spider opens", () => {
    const spider = new BotSpider();
    const crawler = fakeCrawler({ USER_AGENT: 'setting/1' }, spider);
    const mw = UserAgentMiddleware.fromCrawler(crawler);
    expect(mw.userAgent).toBe('setting/1');
    mw.openSpider(spider);
    expect(mw.userAgent).toBe('spider-bot/1.0');
    expect(userAgentOf(mw, spider)).toBe('spider-bot/1.0');
  });

  it("reads the spider's attribute on first use when openSpider was not called", () => {
    expect(userAgentOf(new UserAgentMiddleware({ userAgent: 'x' }), new BotSpider())).toBe('spider-bot/1.0');
  });

  it('keeps a User-Agent the request already has', () => {
    const request = new Request('http://a.test/', { headers: { 'user-agent': 'mine' } });
    expect(userAgentOf(new UserAgentMiddleware(), new TestSpider(), request)).toBe('mine');
  });

  it('sends none when the User-Agent is empty', () => {
    expect(userAgentOf(new UserAgentMiddleware({ userAgent: '' }), new TestSpider())).toBeNull();
  });
});
