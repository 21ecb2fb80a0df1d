/**
 * The built-in filter-only spider middlewares (depth, URL length, offsite,
 * referer) run as one stage (src/contracts/output-filter.ts,
 * src/engine/spider-chain.ts). What a spider notices must not change: the
 * same outputs, headers, depths and stats as when each runs as its own
 * generator, a subclass that replaces processSpiderOutput still called, and
 * a user middleware between them seeing what the ones after it in the
 * chain let through.
 */
import { describe, expect, it } from '@jest/globals';
import { scrapeInto, scrapeThrough } from '../../src/engine/spider-chain.js';
import { DepthMiddleware } from '../../src/middlewares/spider/depth.js';
import { OffsiteMiddleware } from '../../src/middlewares/spider/offsite.js';
import { RefererMiddleware } from '../../src/middlewares/spider/referer.js';
import { UrlLengthMiddleware } from '../../src/middlewares/spider/url-length.js';
import { MemoryStatsCollector } from '../../src/stats/index.js';
import { Request, Response, Spider, type SpiderMiddleware, type SpiderOutput } from '../../src/index.js';

class Shop extends Spider {
  static override name = 'shop';
  override allowedDomains = ['shop.test'];
}

function callback(this: Spider): Iterable<SpiderOutput> {
  return [
    new Request('http://shop.test/a'),
    { item: 1 },
    new Request('http://elsewhere.test/b'),
    new Request('http://shop.test/' + 'x'.repeat(60)),
    new Request('http://shop.test/c', { meta: { referrer_policy: 'no-referrer' } }),
    new Request('http://shop.test/d'),
  ];
}

// The same middlewares with processSpiderOutput replaced: each runs as its own generator.
class DepthGen extends DepthMiddleware {
  override processSpiderOutput(response: Response, result: AsyncIterable<SpiderOutput>, spider: Spider) {
    return super.processSpiderOutput(response, result, spider);
  }
}
class UrlLengthGen extends UrlLengthMiddleware {
  override processSpiderOutput(response: Response, result: AsyncIterable<SpiderOutput>, spider: Spider) {
    return super.processSpiderOutput(response, result, spider);
  }
}
class OffsiteGen extends OffsiteMiddleware {
  override processSpiderOutput(response: Response, result: AsyncIterable<SpiderOutput>, spider: Spider) {
    return super.processSpiderOutput(response, result, spider);
  }
}
class RefererGen extends RefererMiddleware {
  override processSpiderOutput(response: Response, result: AsyncIterable<SpiderOutput>, spider?: Spider) {
    return super.processSpiderOutput(response, result, spider);
  }
}

function chain(stats: MemoryStatsCollector, separate: boolean, between?: SpiderMiddleware): SpiderMiddleware[] {
  const [Offsite, Referer, UrlLength, Depth] = separate
    ? [OffsiteGen, RefererGen, UrlLengthGen, DepthGen]
    : [OffsiteMiddleware, RefererMiddleware, UrlLengthMiddleware, DepthMiddleware];
  // Chain order as the crawler builds it from SPIDER_MIDDLEWARES_BASE (500, 700, 800, 900).
  const list: SpiderMiddleware[] = [new Offsite({ stats }), new Referer(), new UrlLength({ maxLength: 50, stats }), new Depth({ maxDepth: 2, stats, verboseStats: true })];
  if (between !== undefined) list.splice(1, 0, between);
  return list;
}

function describeOutput(output: SpiderOutput): string {
  return output instanceof Request ? `${output.url} depth=${String(output.meta.depth)} referer=${output.headers.get('Referer') ?? '-'}` : JSON.stringify(output);
}

/** The outputs as the general path (async generators) gives them, and checks that scrapeInto (the engine's) gives the same. */
async function run(middlewares: SpiderMiddleware[], depth = 1, cb: typeof callback = callback): Promise<string[]> {
  const results: string[][] = [];
  for (const inline of [false, true]) {
    const spider = new Shop();
    for (const mw of middlewares) (mw as { openSpider?: (s: Spider) => void }).openSpider?.(spider);
    const request = new Request('http://shop.test/page', { callback: cb, meta: { depth } });
    const response = new Response({ url: request.url, status: 200, body: '', request });
    const lines: string[] = [];
    const errors: Error[] = [];
    if (inline) {
      await scrapeInto(middlewares, response, request, spider, (error) => errors.push(error), (output) => lines.push(describeOutput(output)) > 0);
    } else {
      for await (const output of scrapeThrough(middlewares, response, request, spider, (error) => errors.push(error))) lines.push(describeOutput(output));
    }
    expect(errors).toEqual([]);
    results.push(lines);
  }
  expect(results[1]).toEqual(results[0]);
  return results[0]!;
}

describe('filter-only spider middlewares as one stage', () => {
  it('give the same outputs, headers, depths and stats as separate generators', async () => {
    const fusedStats = new MemoryStatsCollector();
    const separateStats = new MemoryStatsCollector();
    const fused = await run(chain(fusedStats, false));
    // run() crawled the page twice (general and inline path): the stats count both.
    expect(fused).toEqual([
      'http://shop.test/a depth=2 referer=http://shop.test/page',
      '{"item":1}',
      'http://shop.test/c depth=2 referer=-',
      'http://shop.test/d depth=2 referer=http://shop.test/page',
    ]);
    expect(await run(chain(separateStats, true))).toEqual(fused);
    expect(fusedStats.getAll()).toEqual(separateStats.getAll());
    expect(fusedStats.get('offsite/filtered')).toBe(2);
    expect(fusedStats.get('urllength/request_ignored_count')).toBe(2);
    // One past DEPTH_LIMIT: everything that is a request is dropped by depth, before the others see it.
    expect(await run(chain(new MemoryStatsCollector(), false), 2)).toEqual(['{"item":1}']);
  });

  it('a middleware between them sees what the later ones let through, before the earlier ones filter', async () => {
    const seen: string[] = [];
    const recorder: SpiderMiddleware = {
      async *processSpiderOutput(_response, result) {
        for await (const output of result) {
          if (output instanceof Request) seen.push(`${output.url} referer=${output.headers.get('Referer') ?? '-'}`);
          yield output;
        }
      },
    };
    const fused = await run(chain(new MemoryStatsCollector(), false, recorder));
    // After depth, URL length and referer (later in the chain); before offsite (earlier). Twice: run() takes both paths.
    const once = [
      'http://shop.test/a referer=http://shop.test/page',
      'http://elsewhere.test/b referer=http://shop.test/page',
      'http://shop.test/c referer=-',
      'http://shop.test/d referer=http://shop.test/page',
    ];
    expect(seen).toEqual([...once, ...once]);
    expect(fused).toHaveLength(4);
  });

  it('a subclass that replaces processSpiderOutput is called', async () => {
    class NoItems extends UrlLengthMiddleware {
      override async *processSpiderOutput(_response: Response, result: AsyncIterable<SpiderOutput>) {
        for await (const output of result) if (output instanceof Request) yield output;
      }
    }
    const stats = new MemoryStatsCollector();
    const list = chain(stats, false);
    list[2] = new NoItems({ maxLength: 50, stats });
    const lines = await run(list);
    expect(lines).not.toContain('{"item":1}');
    // Its own method replaced the URL-length check too.
    expect(lines.some((line) => line.includes('x'.repeat(60)))).toBe(true);
  });
});

describe('the inline path (scrapeInto) for plain iterables', () => {
  const filters = (): SpiderMiddleware[] => chain(new MemoryStatsCollector(), false);

  it('gives a generator’s outputs, promises among them awaited, as the general path does', async () => {
    function* mixed(): Iterable<SpiderOutput> {
      yield new Request('http://shop.test/a');
      yield Promise.resolve({ item: 2 }) as unknown as SpiderOutput;
      yield null as unknown as SpiderOutput;
      yield new Request('http://elsewhere.test/b');
    }
    expect(await run(filters(), 1, mixed)).toEqual(['http://shop.test/a depth=2 referer=http://shop.test/page', '{"item":2}']);
  });

  it('keeps outputs before a throw, and filters what processSpiderException gives back', async () => {
    function* failing(): Iterable<SpiderOutput> {
      yield { item: 1 };
      throw new Error('broken page');
    }
    const recovering: SpiderMiddleware = {
      processSpiderException: () => [new Request('http://elsewhere.test/x'), new Request('http://shop.test/retry'), { recovered: true }],
    };
    const lines = await run([recovering, ...filters()], 1, failing);
    expect(lines).toEqual(['{"item":1}', 'http://shop.test/retry depth=2 referer=http://shop.test/page', '{"recovered":true}']);
  });

  it('stops the generator (its finally runs) when the engine wants no more outputs', async () => {
    let closed = false;
    let pulled = 0;
    function* endless(this: Spider): Iterable<SpiderOutput> {
      try {
        for (;;) {
          pulled++;
          yield { n: pulled };
        }
      } finally {
        closed = true;
      }
    }
    const spider = new Shop();
    const request = new Request('http://shop.test/page', { callback: endless });
    const response = new Response({ url: request.url, status: 200, body: '', request });
    const got: SpiderOutput[] = [];
    await scrapeInto(filters(), response, request, spider, () => undefined, (output) => got.push(output) < 3);
    expect(got).toHaveLength(3);
    expect(pulled).toBe(3);
    expect(closed).toBe(true);
  });

  it('leaves out a middleware that says it passes this response’s outputs through (passesOutputsOf), and keeps one that does not', async () => {
    const calls: string[] = [];
    const passing = (passes: boolean): SpiderMiddleware & { passesOutputsOf(response: Response): boolean } => ({
      passesOutputsOf: () => passes,
      async *processSpiderOutput(_response: Response, result: AsyncIterable<SpiderOutput>) {
        calls.push(`called (passes=${String(passes)})`);
        yield* result;
      },
    });
    const expected = ['http://shop.test/a depth=2 referer=http://shop.test/page', '{"item":1}', 'http://shop.test/c depth=2 referer=-', 'http://shop.test/d depth=2 referer=http://shop.test/page'];
    expect(await run([passing(true), ...filters()])).toEqual(expected);
    // Called once: by the general path only.
    expect(calls).toEqual(['called (passes=true)']);
    calls.length = 0;
    expect(await run([passing(false), ...filters()])).toEqual(expected);
    expect(calls).toEqual(['called (passes=false)', 'called (passes=false)']);
  });
});
