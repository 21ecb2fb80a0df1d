import { describe, expect, it } from '@jest/globals';
import { Request } from '../../src/http/request.js';
import { LogBus } from '../../src/log/index.js';
import { ProxyPool, TIER_STEP_DOWN_AFTER } from '../../src/proxies/index.js';
import { SettingsError } from '../../src/settings/index.js';
import { MemoryStatsCollector } from '../../src/stats/memory-stats-collector.js';
import { fakeCrawler, recordLogs } from '../helpers/fake-crawler.js';

const A = 'http://alice:pw-a@a.test:8001';
const B = 'http://bob:pw-b@b.test:8002';
const C = 'socks5://carol:pw-c@c.test:1080';

function pool(options: Partial<ConstructorParameters<typeof ProxyPool>[0]> = {}) {
  let now = 1_000_000;
  const stats = new MemoryStatsCollector();
  const logBus = new LogBus();
  const record = recordLogs(logBus);
  const made = new ProxyPool({ list: [A, B, C], backoffBase: 30, backoffCap: 100, stats, logBus, now: () => now, ...options });
  return { pool: made, stats, record, now: () => now, advance: (seconds: number) => (now += seconds * 1000) };
}

const req = (url: string): Request => new Request(url);

describe('ProxyPool: rotation', () => {
  it('round-robin: each request takes the next proxy in turn', async () => {
    const { pool: p } = pool();
    const chosen = [];
    for (let i = 0; i < 6; i++) chosen.push((await p.choose(req(`http://site${i % 2}.test/`))).url);
    expect(chosen).toEqual([A, B, C, A, B, C]);
  });

  it('per-domain: a domain keeps its proxy while it works, and moves on when it rests', async () => {
    const { pool: p } = pool({ rotation: 'per-domain' });
    const one = await p.choose(req('http://one.test/1'));
    const two = await p.choose(req('http://two.test/1'));
    expect([one.url, two.url, (await p.choose(req('http://one.test/2'))).url, (await p.choose(req('http://two.test/2'))).url]).toEqual([A, B, A, B]);
    p.report(A, 'banned');
    expect((await p.choose(req('http://one.test/3'))).url).toBe(C);
    expect((await p.choose(req('http://one.test/4'))).url).toBe(C);
  });

  it('per-session: a session keeps its proxy for its life, another when it rests', () => {
    const { pool: p } = pool({ rotation: 'per-session' });
    const r = req('http://one.test/');
    const s1 = p.forSession('s1', r);
    const s2 = p.forSession('s2', r);
    expect([s1, s2, p.forSession('s1', r), p.forSession('s2', r)]).toEqual([A, B, A, B]);
    p.report(p.idOf(A)!, 'failed');
    expect(p.forSession('s1', r)).toBe(C);
    p.assign(r, C);
    expect([r.meta.proxy, r.meta._pool_proxy]).toEqual([C, 'socks5://c.test:1080']);
  });
});

describe('ProxyPool: rests', () => {
  it('rests a failing proxy BASE seconds, doubling per failure in a row up to CAP; a success resets it', () => {
    const { pool: p, advance, now, stats } = pool({ list: [A, B] });
    const entry = p.tiers[0]![0]!;
    const rests: number[] = [];
    for (let i = 0; i < 4; i++) {
      p.report(A, 'failed');
      rests.push((entry.restUntil - now()) / 1000);
      advance(200);
    }
    expect(rests).toEqual([30, 60, 100, 100]);
    p.report(A, 'success');
    p.report(A, 'banned');
    expect((entry.restUntil - now()) / 1000).toBe(30);
    expect(stats.get('proxies/a.test:8001/failed')).toBe(4);
    expect(stats.get('proxies/a.test:8001/banned')).toBe(1);
    expect(stats.get('proxies/a.test:8001/rested')).toBe(5);
  });

  it('does not lengthen a rest for failures of requests already in flight', () => {
    const { pool: p, stats } = pool();
    p.report(A, 'failed');
    p.report(A, 'failed');
    p.report(A, 'failed');
    expect(stats.get('proxies/a.test:8001/failed')).toBe(3);
    expect(stats.get('proxies/a.test:8001/rested')).toBe(1);
  });

  it('skips resting proxies, and tries a proxy again once its rest is over', async () => {
    const { pool: p, advance } = pool();
    p.report(B, 'failed');
    const chosen = [];
    for (let i = 0; i < 4; i++) chosen.push((await p.choose(req('http://x.test/'))).url);
    expect(chosen).toEqual([A, C, A, C]);
    advance(31);
    expect([(await p.choose(req('http://x.test/'))).url, (await p.choose(req('http://x.test/'))).url]).toEqual([A, B]);
  });

  it('holds requests while every proxy rests, and sends them when the first wakes; warns once', async () => {
    const { pool: p, record } = pool({ list: [A, B], backoffBase: 0.3, backoffCap: 1, now: Date.now });
    p.report(A, 'failed');
    await new Promise((resolve) => setTimeout(resolve, 100));
    p.report(B, 'failed');
    const started = Date.now();
    const choices = await Promise.all([p.choose(req('http://x.test/1')), p.choose(req('http://x.test/2'))]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(choices.map((choice) => choice.url)).toEqual([A, A]);
    const warnings = record.lines().filter(([, level]) => level === 'WARNING').map(([, , message]) => message);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^all 2 proxies are resting; next back in 0\.[0-9]s$/);
  });

  it('names proxies by host:port only: no credentials in stats, logs or ids', async () => {
    const { pool: p, stats, record } = pool();
    for (const url of [A, B, C]) {
      p.noteSent(p.idOf(url), null);
      p.report(url, 'banned', undefined, 'status 403');
    }
    const everything = JSON.stringify([stats.getAll(), record.logs, [A, B, C].map((url) => p.idOf(url))]);
    for (const secret of ['alice', 'pw-a', 'bob', 'pw-b', 'carol', 'pw-c']) expect(everything).not.toContain(secret);
    expect(stats.getAll()).toEqual({
      'proxies/a.test:8001/requests': 1, 'proxies/a.test:8001/banned': 1, 'proxies/a.test:8001/rested': 1,
      'proxies/b.test:8002/requests': 1, 'proxies/b.test:8002/banned': 1, 'proxies/b.test:8002/rested': 1,
      'proxies/c.test:1080/requests': 1, 'proxies/c.test:1080/banned': 1, 'proxies/c.test:1080/rested': 1,
    });
  });

  it('tells apart two accounts at one gateway', () => {
    const p = new ProxyPool({ list: ['http://u1:p@gw.test:7000', 'http://u2:p@gw.test:7000'] });
    expect([p.idOf('http://u1:p@gw.test:7000'), p.idOf('http://u2:p@gw.test:7000')]).toEqual(['http://gw.test:7000#1', 'http://gw.test:7000#2']);
  });
});

describe('ProxyPool: tiers', () => {
  const TIERS = [[], ['http://dc1.test:1', 'http://dc2.test:2'], ['http://user:pw@res.test:3']];

  it('starts each domain at tier 0, escalates it on a block, and steps down after K successes in a row', async () => {
    const { pool: p } = pool({ list: undefined, tiers: TIERS });
    const send = async (url: string) => {
      const request = req(url);
      const choice = await p.choose(request);
      p.assign(request, choice.url);
      return { request, choice };
    };
    let sent = await send('http://shop.test/1');
    expect(sent.choice).toEqual({ url: null, id: null, tier: 0 });
    p.report(null, 'banned', sent.request, 'status 403');
    sent = await send('http://shop.test/2');
    expect(sent.choice.tier).toBe(1);
    // Another domain is not affected.
    expect((await p.choose(req('http://other.test/'))).tier).toBe(0);
    p.report(sent.choice.url, 'banned', sent.request, 'status 403');
    sent = await send('http://shop.test/3');
    expect([sent.choice.tier, sent.choice.url]).toEqual([2, 'http://user:pw@res.test:3']);
    for (let i = 0; i < TIER_STEP_DOWN_AFTER; i++) {
      const ok = await send(`http://shop.test/ok${i}`);
      expect(ok.choice.tier).toBe(2);
      p.report(ok.choice.url, 'success', ok.request);
    }
    sent = await send('http://shop.test/4');
    expect(sent.choice.tier).toBe(1);
    p.report(sent.choice.url, 'banned', sent.request, 'status 403');
    expect((await p.choose(req('http://shop.test/5'))).tier).toBe(2);
  });

  it('moves a domain one tier for a burst of failures sent at the same tier', async () => {
    const { pool: p } = pool({ list: undefined, tiers: TIERS });
    const inFlight = [req('http://shop.test/a'), req('http://shop.test/b'), req('http://shop.test/c')];
    for (const request of inFlight) p.assign(request, (await p.choose(request)).url);
    for (const request of inFlight) p.report(null, 'failed', request, 'SEINE_CONNECTION_REFUSED');
    expect((await p.choose(req('http://shop.test/d'))).tier).toBe(1);
  });
});

describe('ProxyPool.of: settings', () => {
  it('is null without PROXY_LIST and PROXY_TIERS', () => {
    expect(ProxyPool.of(fakeCrawler())).toBeNull();
  });

  it('refuses PROXY_LIST with PROXY_TIERS in one clear SettingsError', () => {
    const crawler = fakeCrawler({ PROXY_LIST: [A], PROXY_TIERS: [[], [B]] });
    expect(() => ProxyPool.of(crawler)).toThrow(SettingsError);
    expect(() => ProxyPool.of(fakeCrawler({ PROXY_LIST: [A], PROXY_TIERS: [[], [B]] }))).toThrow(
      'Settings PROXY_LIST and PROXY_TIERS are both set: use PROXY_LIST for one set of proxies in turn, or PROXY_TIERS for tiers per domain, not both',
    );
  });

  it('reads PROXY_TIERS given as JSON on the command line', () => {
    const crawler = fakeCrawler({ PROXY_TIERS: JSON.stringify([[], ['http://dc1.test:1']]) });
    const p = ProxyPool.of(crawler)!;
    expect(p.tiers.map((tier) => tier.map((entry) => entry.id))).toEqual([[], ['http://dc1.test:1']]);
    expect(crawler.settings.get('PROXY_TIERS')).toEqual([[], ['http://dc1.test:1']]);
  });

  it('names a bad entry without its password', () => {
    expect(() => ProxyPool.of(fakeCrawler({ PROXY_TIERS: '[["http://me:hunter2@p.test:1", 7]]' }))).toThrow(
      'Setting PROXY_TIERS must be a list of lists of proxy URLs, such as [[], ["http://dc1:8080"], ["http://user:pass@residential:8000"]]',
    );
    expect(() => ProxyPool.of(fakeCrawler({ PROXY_LIST: ['ftp://me:hunter2@p.test:21'] }))).toThrow(
      "Setting PROXY_LIST has 'ftp://***@p.test:21': the ftp scheme is not supported; use http://, https://, socks5:// or socks5h://",
    );
    expect(() => ProxyPool.of(fakeCrawler({ PROXY_ROTATION: 'random', PROXY_LIST: [A] }))).toThrow(
      "Setting PROXY_ROTATION must be 'round-robin', 'per-domain' or 'per-session', got \"random\"",
    );
  });
});
