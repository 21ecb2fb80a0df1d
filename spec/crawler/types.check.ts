/** Type tests for the engine's public contracts, checked by `npx tsc --noEmit` (the type check in `npm test` is the test). */
import { CloseSpider, DontCloseSpider, Request, crawl, type Crawler, type CrawlRun, type RequestMeta, type Spider } from '../../src/index.js';

export function requestMetaTypes(): void {
  const request = new Request('http://127.0.0.1/', { meta: { download_timeout: 5, dont_redirect: true, mine: { any: 'thing' } } });
  const timeout: number | undefined = request.meta.download_timeout;
  const proxy: string | null | undefined = request.meta.proxy;
  const mine: unknown = request.meta['mine'];
  // @ts-expect-error download_timeout is a number of seconds
  request.meta.download_timeout = '5';
  // @ts-expect-error handle_httpstatus_list holds status numbers
  const bad: RequestMeta = { handle_httpstatus_list: ['404'] };
  void [timeout, proxy, mine, bad];
}

export function crawlerTypes(spiderClass: new () => Spider & { parse(): void }): void {
  const run: CrawlRun = crawl(spiderClass as never);
  const crawler: Crawler | null = run.crawler;
  crawler?.pause();
  crawler?.resume();
  const disconnect: () => void = crawler!.signals.connect('spider_idle', (event) => {
    const type: 'spider_idle' = event.type;
    void type;
    crawler!.engine.crawl(new Request('http://127.0.0.1/more'));
    throw new DontCloseSpider();
  });
  crawler!.signals.connect('request_dropped', (event) => {
    const reason: 'duplicate' | 'offsite' | 'robots' | 'closing' | 'ignored' | 'error' = event.reason;
    void reason;
  });
  // @ts-expect-error not an event type
  crawler!.signals.connect('spider_sleepy', () => undefined);
  // @ts-expect-error CrawlRun.crawler is the Crawler interface, not the implementation
  run.crawler?.engineAccess;
  const closing: string = new CloseSpider('enough').reason;
  void [disconnect, closing];
}
