import { describe, expect, it } from '@jest/globals';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { LogBus } from '../../../src/log/index.js';
import { DepthMiddleware } from '../../../src/middlewares/spider/depth.js';
import { MemoryStatsCollector } from '../../../src/stats/memory-stats-collector.js';
import { TestSpider, fakeCrawler, recordLogs } from '../../helpers/fake-crawler.js';
import { collect, outputs, responseFor } from '../../helpers/spider-output.js';

const spider = new TestSpider();

describe('DepthMiddleware', () => {
  it('gives a start response depth 0 and the requests it yields depth 1', async () => {
    const response = responseFor('http://example.com/');
    const item = { a: 1 };
    const result = await collect(new DepthMiddleware().processSpiderOutput(response, outputs(new Request('http://example.com/a'), item), spider));
    expect(response.meta.depth).toBe(0);
    expect((result[0] as Request).meta.depth).toBe(1);
    expect(result[1]).toBe(item);
  });

  it('counts one more than the response depth', async () => {
    const result = await collect(new DepthMiddleware().processSpiderOutput(responseFor('http://example.com/', { meta: { depth: 4 } }), outputs(new Request('http://example.com/a')), spider));
    expect((result[0] as Request).meta.depth).toBe(5);
  });

  it('drops requests deeper than DEPTH_LIMIT with a DEBUG line and keeps items', async () => {
    const crawler = fakeCrawler({ DEPTH_LIMIT: 2 });
    const middleware = DepthMiddleware.fromCrawler(crawler);
    const item = { a: 1 };
    const atLimit = await collect(middleware.processSpiderOutput(responseFor('http://example.com/', { meta: { depth: 1 } }), outputs(new Request('http://example.com/2')), spider));
    const past = await collect(middleware.processSpiderOutput(responseFor('http://example.com/2', { meta: { depth: 2 } }), outputs(new Request('http://example.com/3'), item), spider));
    expect(atLimit.map((r) => (r as Request).url)).toEqual(['http://example.com/2']);
    expect(past).toEqual([item]);
    expect(crawler.textLines()).toEqual(['DEBUG [seine.spidermiddlewares.depth] Ignoring link (depth > 2): http://example.com/3']);
    expect(crawler.stats.getAll()).toEqual({ request_depth_max: 2 });
  });

  it('has no limit when DEPTH_LIMIT is 0', async () => {
    const result = await collect(DepthMiddleware.fromCrawler(fakeCrawler()).processSpiderOutput(responseFor('http://example.com/', { meta: { depth: 1000 } }), outputs(new Request('http://example.com/a')), spider));
    expect(result).toHaveLength(1);
  });

  it('counts requests per depth with DEPTH_STATS_VERBOSE and always the deepest in request_depth_max', async () => {
    const crawler = fakeCrawler({ DEPTH_STATS_VERBOSE: true });
    const middleware = DepthMiddleware.fromCrawler(crawler);
    const start = responseFor('http://example.com/');
    const first = await collect(middleware.processSpiderOutput(start, outputs(new Request('http://example.com/a'), new Request('http://example.com/b')), spider));
    const child = new Response({ url: 'http://example.com/a', request: first[0] as Request });
    await collect(middleware.processSpiderOutput(child, outputs(new Request('http://example.com/c')), spider));
    expect(crawler.stats.getAll()).toEqual({ 'request_depth_count/0': 1, 'request_depth_count/1': 2, 'request_depth_count/2': 1, request_depth_max: 2 });
  });

  it('lowers priority by depth × DEPTH_PRIORITY (a negative value raises it)', async () => {
    const request = new Request('http://example.com/a', { priority: 10 });
    const [breadth] = await collect(DepthMiddleware.fromCrawler(fakeCrawler({ DEPTH_PRIORITY: 1 })).processSpiderOutput(responseFor('http://example.com/', { meta: { depth: 2 } }), outputs(request), spider));
    const [deep] = await collect(new DepthMiddleware({ priority: -2 }).processSpiderOutput(responseFor('http://example.com/', { meta: { depth: 2 } }), outputs(request), spider));
    expect((breadth as Request).priority).toBe(7);
    expect((breadth as Request).meta.depth).toBe(3);
    expect((deep as Request).priority).toBe(16);
    expect(request.priority).toBe(10);
  });

  it('leaves priority and the request object alone when DEPTH_PRIORITY is 0', async () => {
    const request = new Request('http://example.com/a', { priority: 3 });
    const [out] = await collect(new DepthMiddleware().processSpiderOutput(responseFor('http://example.com/'), outputs(request), spider));
    expect(out).toBe(request);
    expect(request.priority).toBe(3);
  });

  it('works from its options with its own stats and log bus', async () => {
    const stats = new MemoryStatsCollector();
    const bus = new LogBus();
    const log = recordLogs(bus);
    const middleware = new DepthMiddleware({ maxDepth: 1, verboseStats: true, stats, logBus: bus });
    await collect(middleware.processSpiderOutput(responseFor('http://example.com/', { meta: { depth: 1 } }), outputs(new Request('http://example.com/x')), spider));
    expect(log.textLines()).toEqual(['DEBUG [seine.spidermiddlewares.depth] Ignoring link (depth > 1): http://example.com/x']);
    expect(stats.getAll()).toEqual({});
  });
});
