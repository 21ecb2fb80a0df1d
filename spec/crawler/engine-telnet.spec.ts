import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { lastValueFrom, toArray } from 'rxjs';
import { Spider, crawl, type Response } from '../../src/index.js';
import { startSite, type TestSite } from '../helpers/site-server.js';

let site: TestSite;
let release: (() => void) | null = null;
beforeAll(async () => {
  site = await startSite({
    '/slow': (_req, res) => {
      // Held open until the test has looked at the engine through the telnet console.
      release = () => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>done</p>');
    },
  });
});
afterAll(async () => site.close());

/** A line-based telnet session: waits for `needle` in what the server sent. */
function session(port: number) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const waitFor = async (needle: string, from: number): Promise<number> => {
    const deadline = Date.now() + 3000;
    while (received.indexOf(needle, from) < 0) {
      if (Date.now() > deadline) throw new Error(`telnet: never saw ${JSON.stringify(needle)} in ${JSON.stringify(received)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return received.indexOf(needle, from) + needle.length;
  };
  return { socket, waitFor, text: () => received };
}

describe('the telnet console inside a running crawl', () => {
  it('logs in with the logged password and shows the engine status with est()', async () => {
    class Slow extends Spider {
      static override name = 'slow';
      override startUrls = [site.url('/slow')];
      override *parse(response: Response) {
        yield { status: response.status };
      }
    }
    const run = crawl(Slow, { settings: { TELNETCONSOLE_PORT: [0], ROBOTSTXT_OBEY: false } });
    const logs: string[] = [];
    run.logs$.subscribe((log) => logs.push(log.message)); // subscribed first: it starts the crawl and sees every line
    const finished = lastValueFrom(run.logs$.pipe(toArray()));
    const deadline = Date.now() + 3000;
    while (!logs.some((l) => l.startsWith('Telnet console listening on')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(logs.find((l) => l.startsWith('Telnet console listening on'))!)![1]);
    const password = /Telnet Password: (\w+)/.exec(logs.find((l) => l.startsWith('Telnet Password:'))!)![1]!;

    const telnet = session(port);
    let at = await telnet.waitFor('Username: ', 0);
    telnet.socket.write('seine\r\n');
    at = await telnet.waitFor('Password: ', at);
    telnet.socket.write(`${password}\r\n`);
    at = await telnet.waitFor('>', at);
    // The telnet console listens before the last extensions open and the flow starts: wait until /slow is downloading.
    while (release === null && Date.now() < deadline + 3000) await new Promise((r) => setTimeout(r, 20));
    telnet.socket.write('est()\r\n');
    at = await telnet.waitFor('engine.isIdle()', at);
    const status = telnet.text();
    expect(status).toContain('Execution engine status');
    expect(status).toMatch(/len\(engine\.downloading\)\s*:\s*1/);
    expect(status).toMatch(/engine\.spider\.name\s*:\s*slow/);
    telnet.socket.destroy();

    release!();
    await finished;
    expect(run.stats?.get('item_scraped_count')).toBe(1);
  });
});
