import { describe, expect, it } from '@jest/globals';
import { Subject, from, lastValueFrom, toArray } from 'rxjs';
import { scrape, type DownloadedTicket, type Scraped } from '../../src/operators/index.js';
import { CloseSpider, IgnoreRequest, Request, type Response, type SpiderMiddleware, type SpiderOutput } from '../../src/index.js';
import { closeHookScenario, deferred, makeState, okResponse, pathOf, req, settleAll, type Harness, type StateParts } from './fakes.js';

/**
 * Stage 5 (src/engine/scrape.ts) alone. Callbacks run as promises and
 * async iterables, which no virtual clock settles, so these tests use real
 * time: a finite input is collected with `lastValueFrom(… toArray())`
 * (the stage completes once every callback has), and `settleAll()` lets
 * pending callbacks run where a test steps through one.
 */

/** A download outcome as the download stage hands it on: its ticket taken and moved to `callback`. */
function responseOutcome(harness: Harness, request: Request, body = 'ok'): DownloadedTicket & { kind: 'response' } {
  const ticket = harness.state.tickets.take(request);
  harness.state.tickets.move(ticket, 'callback');
  return { kind: 'response', request, response: okResponse(request, body), ticket };
}

function errorOutcome(harness: Harness, request: Request, error: Error): DownloadedTicket & { kind: 'error' } {
  const ticket = harness.state.tickets.take(request);
  harness.state.tickets.move(ticket, 'callback');
  return { kind: 'error', request, error, ticket };
}

function scrapeAll(harness: Harness, outcomes: DownloadedTicket[]): Promise<Scraped[]> {
  return lastValueFrom(from(outcomes).pipe(scrape(harness.state), toArray()));
}

/** What came out as `[output, response path or null, ticket id]`; requests by path. */
function outputLine(scraped: Scraped): [unknown, string | null, number] {
  const output: unknown = scraped.output instanceof Request ? `request ${pathOf(scraped.output)}` : scraped.output;
  return [output, scraped.response === null ? null : pathOf(scraped.response.request), scraped.ticket.id];
}

function setup(parts: StateParts = {}): Harness {
  return makeState(parts);
}

describe('scrape: a response and its callback', () => {
  it("emits the callback's outputs in order with their ticket and response; the ticket settles done", async () => {
    const h = setup();
    const seen: Array<[unknown, Record<string, unknown>]> = [];
    const request = req('/page', {
      cbKwargs: { n: 7 },
      callback: function* (this: unknown, response: Response, kwargs: Record<string, unknown>) {
        seen.push([this, kwargs]);
        yield { title: response.text };
        yield new Request('http://example.com/next');
        yield { title: 'second' };
      },
    });
    const outcome = responseOutcome(h, request, 'hello');
    const out = await scrapeAll(h, [outcome]);
    expect(out.map(outputLine)).toEqual([
      [{ title: 'hello' }, '/page', outcome.ticket.id],
      ['request /next', '/page', outcome.ticket.id],
      [{ title: 'second' }, '/page', outcome.ticket.id],
    ]);
    expect(out.every((scraped) => scraped.response === outcome.response && scraped.ticket === outcome.ticket)).toBe(true);
    // The callback runs with `this` = the spider and the request's cbKwargs.
    expect(seen).toEqual([[h.state.spider, { n: 7 }]]);
    expect(outcome.ticket.outcome).toBe('done');
    expect(outcome.ticket.phase).toBe('done');
    expect(h.scheduler.acknowledged).toEqual([['/page', 'done']]);
    expect(h.lines()).toEqual(['response_received /page 200']);
  });

  it('settles the ticket only after the last output; outputs held downstream keep it open', async () => {
    const h = setup();
    const gate = deferred<void>();
    const request = req('/page', {
      callback: async function* () {
        yield { n: 1 };
        await gate.promise;
        yield { n: 2 };
      },
    });
    const outcome = responseOutcome(h, request);
    const out: Scraped[] = [];
    let completed = false;
    from([outcome])
      .pipe(scrape(h.state))
      .subscribe({
        next: (scraped) => {
          // As engineFlow routes an item: it holds the ticket until the item pipeline releases it.
          h.state.tickets.hold(scraped.ticket);
          out.push(scraped);
        },
        complete: () => (completed = true),
      });
    await settleAll();
    expect(out.map(outputLine)).toEqual([[{ n: 1 }, '/page', outcome.ticket.id]]);
    expect(outcome.ticket.outcome).toBe(null);

    gate.resolve();
    await settleAll();
    expect(out.map(outputLine)).toEqual([
      [{ n: 1 }, '/page', outcome.ticket.id],
      [{ n: 2 }, '/page', outcome.ticket.id],
    ]);
    expect(completed).toBe(true);
    expect(outcome.ticket.outcome).toBe('done');
    expect(outcome.ticket.phase).toBe('callback'); // two items still held
    h.state.tickets.release(outcome.ticket);
    h.state.tickets.release(outcome.ticket);
    expect(outcome.ticket.phase).toBe('done');
  });

  it('runs the callbacks of several responses side by side, each output with its own ticket', async () => {
    const h = setup();
    const slow = deferred<void>();
    const a = responseOutcome(h, req('/a', { callback: async () => { await slow.promise; return { from: 'a' }; } }));
    const b = responseOutcome(h, req('/b', { callback: () => ({ from: 'b' }) }));
    const collected = scrapeAll(h, [a, b]);
    await settleAll();
    slow.resolve();
    expect((await collected).map(outputLine)).toEqual([
      [{ from: 'b' }, '/b', b.ticket.id],
      [{ from: 'a' }, '/a', a.ticket.id],
    ]);
    expect([a.ticket.phase, b.ticket.phase]).toEqual(['done', 'done']);
  });

  it('passes the outputs through the spider middlewares', async () => {
    const onlyEven: SpiderMiddleware = {
      processSpiderOutput: async function* (_response, outputs) {
        for await (const output of outputs) if ((output as { n: number }).n % 2 === 0) yield output;
      },
    };
    const h = setup({ spiderMiddlewares: [onlyEven] });
    const outcome = responseOutcome(h, req('/p', { callback: () => [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }] }));
    const out = await scrapeAll(h, [outcome]);
    expect(out.map((scraped) => scraped.output)).toEqual([{ n: 2 }, { n: 4 }]);
    expect(outcome.ticket.phase).toBe('done');
  });
});

describe('scrape: callback errors', () => {
  it('records a callback that throws as spider_error (with its response) and settles the ticket failed; outputs before the throw stay', async () => {
    const h = setup();
    const boom = new TypeError('no title');
    const outcome = responseOutcome(h, req('/bad', {
      callback: function* () {
        yield { n: 1 };
        throw boom;
      },
    }));
    const other = responseOutcome(h, req('/good', { callback: () => ({ n: 2 }) }));
    const out = await scrapeAll(h, [outcome, other]);
    expect(out.map(outputLine)).toEqual([
      [{ n: 1 }, '/bad', outcome.ticket.id],
      [{ n: 2 }, '/good', other.ticket.id],
    ]);
    // A generator callback runs through the default middlewares in one go: its error is recorded before the next response's callback starts.
    expect(h.lines()).toEqual(['response_received /bad 200', 'spider_error /bad TypeError: no title', 'response_received /good 200']);
    const error = h.events.find((event) => event.type === 'spider_error');
    expect(error).toEqual({ type: 'spider_error', error: boom, response: outcome.response });
    expect(outcome.ticket.outcome).toBe('failed');
    expect(outcome.ticket.phase).toBe('failed');
    expect(other.ticket.phase).toBe('done');
    expect([...h.scheduler.acknowledged].sort()).toEqual([['/bad', 'failed'], ['/good', 'done']]);
    expect(h.state.closeReason).toBe(null);
  });

  it('records a callback that throws before producing anything (not a generator) the same way', async () => {
    const h = setup();
    const outcome = responseOutcome(h, req('/bad', {
      callback: () => {
        throw new Error('parse failed');
      },
    }));
    const out = await scrapeAll(h, [outcome]);
    expect(out).toEqual([]);
    expect(h.lines()).toEqual(['response_received /bad 200', 'spider_error /bad Error: parse failed']);
    expect(outcome.ticket.phase).toBe('failed');
  });

  it('closes the crawl on a CloseSpider from a callback: closeReason set, no spider_error', async () => {
    const h = setup();
    h.scheduler.enqueue(req('/queued'));
    const outcome = responseOutcome(h, req('/page', {
      callback: function* () {
        yield { n: 1 };
        throw new CloseSpider('enough');
      },
    }));
    const out = await scrapeAll(h, [outcome]);
    expect(out.map((scraped) => scraped.output)).toEqual([{ n: 1 }]);
    expect(h.state.closeReason).toBe('enough');
    expect(h.lines()).toEqual(['response_received /page 200', 'request_dropped /queued closing']);
    expect(outcome.ticket.outcome).toBe('failed');
  });

  it('lets a spider middleware recover from a callback error: its outputs, no spider_error, the ticket done', async () => {
    const recover: SpiderMiddleware = { processSpiderException: (_response, error) => [{ recovered: error.message }] };
    const h = setup({ spiderMiddlewares: [recover] });
    const outcome = responseOutcome(h, req('/page', {
      callback: () => {
        throw new Error('oops');
      },
    }));
    const out = await scrapeAll(h, [outcome]);
    expect(out.map((scraped) => scraped.output)).toEqual([{ recovered: 'oops' }]);
    expect(h.lines()).toEqual(['response_received /page 200']);
    expect(outcome.ticket.phase).toBe('done');
  });
});

describe('scrape: failed downloads', () => {
  it("hands a download error to the request's errback (this = spider) and emits its outputs with no response; the ticket settles done", async () => {
    const h = setup();
    const calls: Array<[unknown, Error, string]> = [];
    const failure = new Error('connection refused');
    const outcome = errorOutcome(h, req('/down', {
      errback: function (this: unknown, error: Error, request: Request): SpiderOutput[] {
        calls.push([this, error, pathOf(request)]);
        return [{ failed: pathOf(request) }, new Request('http://example.com/retry-later')];
      },
    }), failure);
    const out = await scrapeAll(h, [outcome]);
    expect(calls).toEqual([[h.state.spider, failure, '/down']]);
    expect(out.map(outputLine)).toEqual([
      [{ failed: '/down' }, null, outcome.ticket.id],
      ['request /retry-later', null, outcome.ticket.id],
    ]);
    expect(h.lines()).toEqual(['download_error /down Error: connection refused']);
    expect(outcome.ticket.phase).toBe('done');
  });

  it('settles a download error without an errback failed, emitting nothing but download_error', async () => {
    const h = setup();
    const outcome = errorOutcome(h, req('/down'), new Error('timeout'));
    const out = await scrapeAll(h, [outcome]);
    expect(out).toEqual([]);
    expect(h.lines()).toEqual(['download_error /down Error: timeout']);
    expect(outcome.ticket.phase).toBe('failed');
    expect(h.scheduler.acknowledged).toEqual([['/down', 'failed']]);
  });

  it('records an errback that throws as spider_error without a response; the ticket fails', async () => {
    const h = setup();
    const outcome = errorOutcome(h, req('/down', {
      errback: () => {
        throw new Error('errback broke');
      },
    }), new Error('timeout'));
    const out = await scrapeAll(h, [outcome]);
    expect(out).toEqual([]);
    expect(h.lines()).toEqual(['download_error /down Error: timeout', 'spider_error - Error: errback broke']);
    expect(outcome.ticket.phase).toBe('failed');
  });

  it('closes the crawl on a CloseSpider from an errback, without spider_error', async () => {
    const h = setup();
    const outcome = errorOutcome(h, req('/down', {
      errback: () => {
        throw new CloseSpider('site down');
      },
    }), new Error('timeout'));
    await scrapeAll(h, [outcome]);
    expect(h.state.closeReason).toBe('site down');
    expect(h.lines()).toEqual(['download_error /down Error: timeout']);
    expect(outcome.ticket.phase).toBe('failed');
  });

  it("drops an IgnoreRequest outcome with request_dropped and the error's dropReason (then download_error)", async () => {
    const h = setup();
    const robots = errorOutcome(h, req('/private'), new IgnoreRequest('Forbidden by robots.txt', { dropReason: 'robots' }));
    const ignored = errorOutcome(h, req('/cached-miss'), new IgnoreRequest('not in cache'));
    const out = await scrapeAll(h, [robots, ignored]);
    expect(out).toEqual([]);
    expect(h.lines()).toEqual([
      'request_dropped /private robots',
      'download_error /private IgnoreRequest: Forbidden by robots.txt',
      'request_dropped /cached-miss ignored',
      'download_error /cached-miss IgnoreRequest: not in cache',
    ]);
    expect([robots.ticket.phase, ignored.ticket.phase]).toEqual(['failed', 'failed']);
  });

  it('drops an IgnoreRequest of another copy of seine (by name, no dropReason) as `ignored`', async () => {
    const h = setup();
    const foreign = Object.assign(new Error('ignored elsewhere'), { name: 'IgnoreRequest' });
    const outcome = errorOutcome(h, req('/x'), foreign);
    await scrapeAll(h, [outcome]);
    expect(h.lines()).toEqual(['request_dropped /x ignored', 'download_error /x IgnoreRequest: ignored elsewhere']);
  });

  it('still calls the errback of an ignored request (Scrapy calls it with the IgnoreRequest)', async () => {
    const h = setup();
    const seen: string[] = [];
    const outcome = errorOutcome(h, req('/private', { errback: (error) => void seen.push(error.message) }), new IgnoreRequest('robots', { dropReason: 'robots' }));
    await scrapeAll(h, [outcome]);
    expect(seen).toEqual(['robots']);
    expect(h.lines()).toEqual(['request_dropped /private robots', 'download_error /private IgnoreRequest: robots']);
    expect(outcome.ticket.phase).toBe('done');
  });
});

describe('scrape: a ticket that cannot close', () => {
  // A bug this test found, now fixed (src/engine/scrape.ts:77-78): the ticket is settled in the `finally` of the
  // callback's `void (async () => …)()`. When closing the ticket throws (the scheduler's
  // acknowledge, i.e. a JOBDIR journal write, or EngineOptions.onTicketClosed), the throw
  // escapes that promise: `subscriber.complete()` on the next line never runs, so the
  // callback's inner Observable never completes (nor does the stage), and the error is an
  // unhandled promise rejection (Node's default ends the process with it) instead of an
  // engine_error or an error of the flow (as a throw of scheduler.next is). Measured:
  // { ended: 'hung', reported: false, secondTicket: 'done', unhandled: ['journal write failed for /a'] }.
  it('still completes, reports the failure (engine_error or the flow errors), and leaves no unhandled rejection, when closing a ticket throws', async () => {
    expect(await closeHookScenario('scrape')).toEqual({ ended: expect.stringMatching(/^(complete|error)$/), reported: true, secondTicket: 'done', unhandled: [] });
  }, 30_000);
});

describe('scrape: teardown', () => {
  it('unsubscribing stops a running callback: no more outputs, and the ticket stays open (a JOBDIR does not acknowledge it)', async () => {
    const h = setup();
    const more = deferred<void>();
    let resumed = false;
    const outcome = responseOutcome(h, req('/page', {
      callback: async function* () {
        yield { n: 1 };
        await more.promise;
        resumed = true;
        yield { n: 2 };
        yield { n: 3 };
      },
    }));
    const input = new Subject<DownloadedTicket>();
    const out: Scraped[] = [];
    const subscription = input.pipe(scrape(h.state)).subscribe((scraped) => out.push(scraped));
    input.next(outcome);
    await settleAll();
    expect(out.map((scraped) => scraped.output)).toEqual([{ n: 1 }]);

    subscription.unsubscribe();
    more.resolve();
    await settleAll();
    expect(resumed).toBe(true);
    expect(out.map((scraped) => scraped.output)).toEqual([{ n: 1 }]);
    expect(outcome.ticket.outcome).toBe(null);
    expect(outcome.ticket.phase).toBe('callback');
    expect(h.state.tickets.open).toBe(1);
    expect(h.scheduler.acknowledged).toEqual([]);
  });
});
