/**
 * Run by close-hook.spec.ts in a child process (`node --import tsx`), because
 * what it measures is an unhandled promise rejection: inside jest the test's
 * `process` is jest's copy, whose 'unhandledRejection' listeners never fire,
 * and jest fails the running test on such a rejection whatever the test
 * asserts. Here the real process records them.
 *
 * For each scenario named on the command line, a stage closes a ticket whose
 * close hook throws (the scheduler's acknowledge: a JOBDIR journal that cannot
 * be written), followed by a second ticket that closes normally. Prints one
 * JSON line: per scenario, how the flow ended within 500 ms, whether the error
 * was reported (the flow's error or an engine_error), the phase of the second
 * ticket, and the unhandled rejections seen.
 */
import { from, type Observable } from 'rxjs';
import { download, itemPipeline, scrape, type DownloadedTicket, type Ticket } from '../../src/operators/index.js';
import { brokenJournal, ending, makeState, okResponse, pathOf, reported, req, type CloseHookResult, type Harness } from './fakes.js';

const unhandled: string[] = [];
process.on('unhandledRejection', (reason) => unhandled.push(reason instanceof Error ? reason.message : String(reason)));

type Scenario = (harness: Harness) => { flow: Observable<unknown>; second: Ticket };

/** A response outcome ready for the scrape stage (ticket taken, moved to callback). */
function responseOutcome(harness: Harness, path: string): DownloadedTicket {
  const request = req(path, { callback: () => ({ from: path }) });
  const ticket = harness.state.tickets.take(request);
  harness.state.tickets.move(ticket, 'callback');
  return { kind: 'response', request, response: okResponse(request), ticket };
}

const scenarios: Record<string, Scenario> = {
  // scrape settles each ticket when its callback is done.
  scrape: (h) => {
    const a = responseOutcome(h, '/a');
    const b = responseOutcome(h, '/b');
    return { flow: from([a, b]).pipe(scrape(h.state)), second: b.ticket };
  },
  // The item pipeline releases each item's hold after emitting it; the last release closes the ticket.
  'item-pipeline': (h) => {
    const tickets = ['/a', '/b'].map((path) => {
      const ticket = h.state.tickets.take(req(path));
      h.state.tickets.move(ticket, 'callback');
      h.state.tickets.hold(ticket);
      h.state.tickets.settle(ticket, 'done');
      return ticket;
    });
    const items = tickets.map((ticket) => ({ item: { from: pathOf(ticket.request) }, response: null, ticket }));
    return { flow: from(items).pipe(itemPipeline(h.state, 1)), second: tickets[1]! };
  },
  // download settles a ticket whose request a middleware replaced (a redirect).
  download: (h) => {
    const tickets = ['/a', '/b'].map((path) => h.state.tickets.take(req(path)));
    return { flow: from(tickets).pipe(download(h.state)), second: tickets[1]! };
  },
};

const results: Record<string, CloseHookResult> = {};
for (const name of process.argv.slice(2)) {
  const scenario = scenarios[name];
  if (scenario === undefined) throw new Error(`unknown scenario ${name}`);
  const harness = makeState({
    downloaderMiddlewares: [{ processRequest: (request) => request.replace({ url: `${request.url}-moved`, dontFilter: true }) }],
  });
  const journal = brokenJournal(harness.scheduler, '/a');
  unhandled.length = 0;
  const { flow, second } = scenario(harness);
  const result = await ending(flow);
  await new Promise<void>((resolve) => setImmediate(resolve));
  results[name] = { ended: result.ended, reported: reported(harness, result, journal), secondTicket: second.phase, unhandled: [...unhandled] };
}
process.stdout.write(`${JSON.stringify(results)}\n`);
