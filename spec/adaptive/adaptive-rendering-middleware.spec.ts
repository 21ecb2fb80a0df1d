import { describe, expect, it } from '@jest/globals';
import type { SpiderOutput } from '../../src/contracts/components.js';
import { AdaptiveRenderingMiddleware } from '../../src/adaptive/adaptive-rendering-middleware.js';
import { Request } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';
import { fakeCrawler, recordLogs, TestSpider } from '../helpers/fake-crawler.js';
import { collect, outputs } from '../helpers/spider-output.js';

const spider = new TestSpider();
const auto = (url: string, meta: Record<string, unknown> = {}): Request => new Request(url, { meta: { playwright: 'auto', ...meta } });
const plainResponse = (request: Request, status = 200): Response => new Response({ url: request.url, status, request });
const renderedResponse = (request: Request): Response => new Response({ url: request.url, request, flags: ['playwright'] });

describe('AdaptiveRenderingMiddleware', () => {
  it('passes a plain page that yields an item straight through: the first item leaves before the callback has finished', async () => {
    const middleware = AdaptiveRenderingMiddleware.fromCrawler(fakeCrawler());
    let finished = false;
    async function* callback(): AsyncIterable<SpiderOutput> {
      yield { name: 'a' };
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = true;
      yield { name: 'b' };
    }
    const iterator = middleware.processSpiderOutput(plainResponse(auto('http://shop.test/p/1')), callback(), spider)[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ value: { name: 'a' }, done: false });
    expect(finished).toBe(false);
    expect((await iterator.next()).value).toEqual({ name: 'b' });
    expect((await iterator.next()).done).toBe(true);
  });

  it('renders a plain page that gave only links, drops the links the rendering repeats, and learns from what it adds', async () => {
    const crawler = fakeCrawler();
    const middleware = AdaptiveRenderingMiddleware.fromCrawler(crawler);
    const page = auto('http://shop.test/list/1');
    const next = new Request('http://shop.test/list/2');
    const fromPlain = await collect(middleware.processSpiderOutput(plainResponse(page), outputs(next), spider));
    expect(fromPlain[0]).toBe(next);
    const rendering = fromPlain[1] as Request;
    expect(fromPlain).toHaveLength(2);
    expect(rendering.url).toBe(page.url);
    expect(rendering.dontFilter).toBe(true);
    expect(rendering.priority).toBe(1);
    expect(rendering.meta['_playwright_auto_plain']).toEqual({ urls: ['http://shop.test/list/2'], compare: true, learnedPlain: false });
    const product = new Request('http://shop.test/p/1');
    const fromRendered = await collect(middleware.processSpiderOutput(renderedResponse(rendering), outputs(new Request('http://shop.test/list/2'), product), spider));
    expect(fromRendered).toEqual([product]);
    expect(crawler.stats.get('playwright/auto/rendered_after_plain')).toBe(1);
    expect(crawler.stats.get('playwright/auto/learned_browser')).toBe(1);
  });

  it('leaves error pages, other requests and pages rendered straight away alone', async () => {
    const crawler = fakeCrawler();
    const middleware = AdaptiveRenderingMiddleware.fromCrawler(crawler);
    const nothing = outputs();
    expect(middleware.processSpiderOutput(plainResponse(auto('http://shop.test/gone'), 404), nothing, spider)).toBe(nothing);
    expect(middleware.processSpiderOutput(plainResponse(new Request('http://shop.test/a')), nothing, spider)).toBe(nothing);
    expect(middleware.processSpiderOutput(renderedResponse(auto('http://shop.test/b')), nothing, spider)).toBe(nothing);
    expect(crawler.stats.get('playwright/auto/rendered')).toBe(1);
  });

  it('renders a plain page whose callback threw, instead of reporting the error', () => {
    const middleware = AdaptiveRenderingMiddleware.fromCrawler(fakeCrawler());
    const page = auto('http://shop.test/p/1');
    const recovered = middleware.processSpiderException(plainResponse(page), new Error('IndexError: list index out of range'));
    expect(recovered).toHaveLength(1);
    expect((recovered![0] as Request).meta['_playwright_auto_plain']).toEqual({ urls: [], compare: true, learnedPlain: false });
    expect(middleware.processSpiderException(renderedResponse(page), new Error('again'))).toBeNull();
  });
});

describe("AdaptiveRenderingMiddleware with the spider's needsBrowser", () => {
  class Hooked extends TestSpider {
    answer: boolean | Error = true;
    needsBrowser(): boolean {
      if (this.answer instanceof Error) throw this.answer;
      return this.answer;
    }
  }

  it('drops the plain outputs and renders when it says true; keeps them when it says false', async () => {
    const crawler = fakeCrawler();
    const middleware = AdaptiveRenderingMiddleware.fromCrawler(crawler);
    const hooked = new Hooked();
    const page = auto('http://shop.test/list/1');
    const rendered = await collect(middleware.processSpiderOutput(plainResponse(page), outputs({ a: 1 }, new Request('http://shop.test/x')), hooked));
    expect(rendered).toHaveLength(1);
    expect((rendered[0] as Request).meta['_playwright_auto_plain']).toEqual({ urls: [], compare: false, learnedPlain: false });
    hooked.answer = false;
    const item = { a: 2 };
    expect(await collect(middleware.processSpiderOutput(plainResponse(auto('http://shop.test/list/2')), outputs(item), hooked))).toEqual([item]);
    // Said true, then false: the kind was learned to need the browser, then not.
    expect(crawler.stats.get('playwright/auto/learned_browser')).toBe(1);
    expect(crawler.stats.get('playwright/auto/learned_plain')).toBe(1);
  });

  it('keeps the plain page, with one ERROR, when it throws', async () => {
    const crawler = fakeCrawler();
    const logs = recordLogs(crawler.logBus);
    const hooked = new Hooked();
    hooked.answer = new Error('no #app');
    const item = { a: 1 };
    const out = await collect(AdaptiveRenderingMiddleware.fromCrawler(crawler).processSpiderOutput(plainResponse(auto('http://shop.test/p/1')), outputs(item), hooked));
    expect(out).toEqual([item]);
    expect(logs.textLines('seine.adaptive')).toContain('ERROR [seine.adaptive] needsBrowser() threw on <GET http://shop.test/p/1>: no #app; the plain page is kept');
  });
});
