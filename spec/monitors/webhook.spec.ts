import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Spider } from '../../src/contracts/spider.js';
import type { Response } from '../../src/http/response.js';
import { fail, pass, type MonitorRun } from '../../src/monitors/index.js';
import { runCrawl, slow, startSite, type TestSite } from '../helpers/site-server.js';

let site: TestSite;
let hooks: TestSite;
let flakyPosts = 0;

beforeAll(async () => {
  site = await startSite({
    '/': '<html><body><a href="/s1">1</a><a href="/s2">2</a><a href="/s3">3</a><a href="/boom">boom</a></body></html>',
    '/boom': '<html><body>boom</body></html>',
    '/s1': slow(400),
    '/s2': slow(400),
    '/s3': slow(400),
  });
  hooks = await startSite({
    '/ok': (_req, res) => void res.writeHead(200).end('ok'),
    '/flaky': (_req, res) => void (++flakyPosts <= 2 ? res.writeHead(500).end('busy') : res.writeHead(200).end('ok')),
    '/down': (_req, res) => void res.writeHead(503).end('down'),
    '/silent': () => undefined,
  });
});
afterAll(async () => {
  await site.close();
  await hooks.close();
});

class Pages extends Spider {
  static override name = 'pages';
  override startUrls = [site.url('/')];
  override *parse(response: Response): Generator<unknown> {
    if (response.url.endsWith('/boom')) throw new Error('layout changed');
    yield { url: response.url };
    yield* response.followAll(response.css('a::attr(href)').getall(), { callback: this.parse });
  }
}

const failing = { MONITORS: { ItemCountMonitor: { min: 100 }, ErrorCountMonitor: { max: 0 } }, CONCURRENT_REQUESTS: 4 };

describe('MONITORS_WEBHOOK_URL', () => {
  it("POSTs Slack's JSON (text and blocks) naming the failed monitors once the crawl closes", async () => {
    hooks.reset();
    const result = await runCrawl(Pages, { ...failing, MONITORS_WEBHOOK_URL: hooks.url('/ok') });
    expect(result.stats['monitors/failed']).toBe(2);
    expect(hooks.requests.map((r) => `${r.method} ${r.path} ${String(r.headers['content-type'])}`)).toEqual(['POST /ok application/json']);
    const body = JSON.parse(hooks.requests[0]!.body) as { text: string; blocks: Array<{ type: string; text: { type: string; text: string } }> };
    expect(body.text).toBe(['seine: spider pages (finished): 2 of 2 monitors failed', 'FAIL ItemCountMonitor: 4 items scraped (min 100)', 'FAIL ErrorCountMonitor: 1 errors logged (max 0)'].join('\n'));
    expect(body.blocks.map((b) => `${b.type} ${b.text.type} ${b.text.text}`)).toEqual([
      'section mrkdwn *seine: spider pages (finished): 2 of 2 monitors failed*',
      'section mrkdwn FAIL ItemCountMonitor: 4 items scraped (min 100)',
      'section mrkdwn FAIL ErrorCountMonitor: 1 errors logged (max 0)',
    ]);
  });

  it('posts nothing when every monitor passes', async () => {
    hooks.reset();
    const result = await runCrawl(Pages, { MONITORS: { ItemCountMonitor: { min: 1 } }, MONITORS_WEBHOOK_URL: hooks.url('/ok') });
    expect(result.stats['monitors/failed']).toBe(0);
    expect(hooks.requests).toEqual([]);
  });

  it('tries again after a failed delivery: two 500s then 200 is three POSTs and no warning', async () => {
    hooks.reset();
    const result = await runCrawl(Pages, { ...failing, MONITORS_WEBHOOK_URL: hooks.url('/flaky') });
    expect(hooks.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /flaky', 'POST /flaky', 'POST /flaky']);
    expect(new Set(hooks.requests.map((r) => r.body)).size).toBe(1);
    // Backoff between attempts: 1 s, then 2 s.
    expect(hooks.requests[2]!.at - hooks.requests[0]!.at).toBeGreaterThanOrEqual(2900);
    expect(result.lines.filter((l) => l.startsWith('Could not deliver'))).toEqual([]);
  });

  it('gives up after three attempts with one WARNING that hides the URL path (a Slack webhook path is its secret)', async () => {
    hooks.reset();
    const result = await runCrawl(Pages, { ...failing, MONITORS_WEBHOOK_URL: hooks.url('/down') });
    expect(hooks.requests).toHaveLength(3);
    const origin = new URL(hooks.url('/')).host;
    expect(result.logs.filter((l) => l.message.startsWith('Could not deliver')).map((l) => `${l.level} ${l.message}`)).toEqual([
      `WARNING Could not deliver the monitors' report to MONITORS_WEBHOOK_URL (http://${origin}/…) after 3 attempts: HTTP 503`,
    ]);
  });
});

describe('a webhook server that never answers', () => {
  it('holds the close at most about 10 s: three attempts cut at 3 s each, then one WARNING', async () => {
    hooks.reset();
    const started = Date.now();
    const result = await runCrawl(Pages, { ...failing, MONITORS_WEBHOOK_URL: hooks.url('/silent') });
    const took = Date.now() - started;
    expect(hooks.requests.map((r) => r.path)).toEqual(['/silent', '/silent', '/silent']);
    expect(result.lines.filter((l) => l.startsWith('Could not deliver'))).toEqual([
      `Could not deliver the monitors' report to MONITORS_WEBHOOK_URL (http://${new URL(hooks.url('/')).host}/…) after 3 attempts: no answer within 1 s`,
    ]);
    // 3 s + 1 s + 3 s + 2 s, and the third attempt gets the 1 s left of the 10 s; the crawl itself takes ~1 s.
    expect(took).toBeGreaterThanOrEqual(10_000);
    expect(took).toBeLessThan(25_000);
  }, 40_000);
});

describe('MONITORS_PERIODIC', () => {
  it('checks during the crawl and reports a monitor that starts failing once (log line and webhook), not every period', async () => {
    hooks.reset();
    site.reset();
    const result = await runCrawl(Pages, {
      CONCURRENT_REQUESTS: 1,
      MONITORS_PERIODIC: { seconds: 0.2, monitors: { ErrorCountMonitor: { max: 0 }, FinishReasonMonitor: {} } },
      MONITORS_WEBHOOK_URL: hooks.url('/ok'),
    });
    expect(result.lines.filter((l) => l.startsWith('Periodic monitor'))).toEqual(['Periodic monitor ErrorCountMonitor failed: 1 errors logged (max 0)']);
    expect(result.stats['monitors/periodic_failures']).toBe(1);
    // No close-time MONITORS: no report block, and the exit status stays 0.
    expect(result.stats['monitors/failed']).toBeUndefined();
    expect(hooks.requests).toHaveLength(1);
    expect(JSON.parse(hooks.requests[0]!.body).text).toBe('seine: spider pages: 1 periodic monitor(s) failed\nFAIL ErrorCountMonitor: 1 errors logged (max 0)');
    // Posted while the crawl was still fetching its slow pages.
    const lastPage = Math.max(...site.requests.map((r) => r.at));
    expect(hooks.requests[0]!.at).toBeLessThan(lastPage);
  });

  it('reports a monitor that passes again (INFO and a second POST), and runs a spider\'s own monitor class by name', async () => {
    class SlowStart {
      check(run: MonitorRun) {
        const responses = run.stat('downloader/response_count');
        return responses >= 3 ? pass(`${responses} responses`) : fail(`only ${responses} responses`);
      }
    }
    class Watched extends Pages {
      static override name = 'watched';
      static monitors = [SlowStart];
    }
    hooks.reset();
    const result = await runCrawl(Watched, {
      CONCURRENT_REQUESTS: 1,
      MONITORS_PERIODIC: { seconds: 0.2, monitors: { SlowStart: {} } },
      MONITORS_WEBHOOK_URL: hooks.url('/ok'),
    });
    const periodic = result.logs.filter((l) => l.message.startsWith('Periodic monitor')).map((l) => `${l.level} ${l.message}`);
    expect(periodic).toHaveLength(2);
    expect(periodic[0]).toMatch(/^WARNING Periodic monitor SlowStart failed: only [0-2] responses$/);
    expect(periodic[1]).toMatch(/^INFO Periodic monitor SlowStart passes again: [3-5] responses$/);
    expect(hooks.requests.map((r) => (JSON.parse(r.body) as { text: string }).text.split('\n')[0])).toEqual([
      'seine: spider watched: 1 periodic monitor(s) failed',
      'seine: spider watched: periodic monitors pass again',
    ]);
    // At close, as the spider's own monitor, it passed: exit status 0.
    expect(result.stats['monitors/failed']).toBe(0);
  });
});
