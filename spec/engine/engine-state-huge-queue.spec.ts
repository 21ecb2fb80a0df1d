import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { lastValueFrom, toArray } from 'rxjs';
import { Request, Spider, crawl, type Response } from '../../src/index.js';
import { QUIET, startSite, type TestSite } from '../helpers/site-server.js';

/** Closing with a queue far longer than the call stack: every queued request is dropped, one event each (issue 21). */

const QUEUED = 200_000;
let site: TestSite;
beforeAll(async () => {
  site = await startSite({ '/': '<html><body>start</body></html>', '/p': '<html><body>p</body></html>' });
});
afterAll(async () => site.close());

describe('EngineState.beginClose with 200,000 requests queued', () => {
  it('closes with closespider_pagecount, logs no ERROR and drops every queued request with reason closing', async () => {
    class Wide extends Spider {
      static override name = 'wide';
      override startUrls = [site.url('/')];
      override *parse(response: Response) {
        if (new URL(response.url).pathname !== '/') return;
        for (let i = 0; i < QUEUED; i++) yield new Request(site.url(`/p?i=${i}`), { callback: this.parse });
      }
    }
    const run = crawl(Wide, { settings: { ...QUIET, CLOSESPIDER_PAGECOUNT: 2, LOG_LEVEL: 'INFO' } });
    let dropped = 0;
    run.events$.subscribe((event) => {
      if (event.type === 'request_dropped' && event.reason === 'closing') dropped++;
    });
    const logs = lastValueFrom(run.logs$.pipe(toArray()));
    await lastValueFrom(run.items$.pipe(toArray()), { defaultValue: [] });
    const lines = (await logs).map((log) => `${log.level}: ${log.message.split('\n')[0]}`);
    const stats = run.stats!.getAll();
    expect(lines.filter((line) => line.startsWith('ERROR'))).toEqual([]);
    expect(stats['finish_reason']).toBe('closespider_pagecount');
    // What was downloaded (the start page and the requests in flight at the close) plus what was dropped is everything.
    const taken = (stats['downloader/request_count'] as number) - 1;
    expect(dropped).toBe(QUEUED - taken);
    expect(stats['request_dropped/closing']).toBe(QUEUED - taken);
    expect(stats['scheduler/enqueued']).toBe(QUEUED + 1);
  }, 120_000); // ~6 s alone; a loaded 2-core machine has taken over 30 s
});
