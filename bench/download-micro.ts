/**
 * What an HTTP client costs per request: seine's downloader (createNodeFetch,
 * and createGotFetch, H2DownloadHandler's), got's promise API, plain node:http, undici.request and Node's global fetch,
 * each GETting the crawl benchmark's ~12.7 KB pages from a local keep-alive
 * server, one at a time and 16 at a time. Reports requests/s and the
 * client's CPU µs per request, medians of the runs.
 *
 * The server (bench/download/server.ts) runs in a process of its own, and so
 * does every measurement (bench/download/client-run.ts: one client, one
 * mode, a fresh process that loads only that client's library), so the
 * client's `process.cpuUsage()` holds no server work, and one client's JIT
 * state or heap does not carry over to the next. Within each run the clients
 * take turns in a rotating order, so a shared machine's load falls on all of
 * them alike. The server's own CPU per request is printed for the record.
 *
 * undici is not a dependency of seine: it is installed on demand into
 * bench/.peers/undici/ (git-ignored; bench/download/undici-peer.ts). When it
 * cannot be installed, undici.request is skipped with a note.
 *
 *   npm run bench:download [-- --requests 5000 --runs 3 --warmup 3000 --pages 200 --clients seine,seine-got,got,http,undici,fetch]
 */

import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CLIENTS, CLIENT_NAMES, type ClientName } from './download/clients.js';
import type { ClientJob, ClientResult } from './download/client-run.js';
import { formatOverhead, formatTable, summarize, type Sample } from './download/report.js';
import type { ServerCpu, ServerReady } from './download/server.js';
import { ensureUndici } from './download/undici-peer.js';

/** A crawl page's CPU on the crawl benchmark (docs/performance.md, "Crawl benchmark": 3.1–3.9 ms measured, ~5 ms budget). */
const PAGE_BUDGET_US = 5000;
const MODES = [
  { name: 'sequential', concurrency: 1 },
  { name: '16 at a time', concurrency: 16 },
];

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '3000' },
    pages: { type: 'string', default: '200' },
    clients: { type: 'string', default: CLIENT_NAMES.join(',') },
  },
});
const positive = (name: string, text: string): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, not ${text}`);
  return n;
};
const REQUESTS = positive('requests', values.requests);
const RUNS = positive('runs', values.runs);
const WARMUP = positive('warmup', values.warmup);
const PAGES = positive('pages', values.pages);
const chosen = values.clients.split(',').map((s) => s.trim()).filter((s) => s !== '');
for (const name of chosen) if (!(name in CLIENTS)) throw new Error(`unknown client ${name}; known: ${CLIENT_NAMES.join(', ')}`);

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const gotVersion = (): string => (JSON.parse(readFileSync(new URL('../node_modules/got/package.json', import.meta.url), 'utf8')) as { version: string }).version;
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');

function startServer(): Promise<{ child: ChildProcess; ready: ServerReady }> {
  const child = spawn(process.execPath, ['--import', 'tsx', here('./download/server.ts'), String(PAGES)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: ServerReady) => resolve({ child, ready: message }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the server exited with status ${code} before it listened`)));
  });
}

async function main(): Promise<void> {
  const clients: ClientName[] = [];
  const notes: string[] = [];
  for (const name of chosen as ClientName[]) {
    if (name === 'undici') {
      try {
        const version = ensureUndici();
        clients.push(name);
        notes.push(`undici.request: undici ${version} from bench/.peers/undici/`);
      } catch (error) {
        notes.push(`undici.request skipped: ${(error as Error).message}`);
      }
      continue;
    }
    clients.push(name);
  }

  const { child: server, ready } = await startServer();
  const pending = new Map<number, (cpu: ServerCpu) => void>();
  server.on('message', (message: ServerCpu) => {
    if (message.type === 'cpu') pending.get(message.id)?.(message);
  });
  const askServer = (id: number): Promise<ServerCpu> => new Promise((resolve) => {
    pending.set(id, (cpu) => {
      pending.delete(id);
      resolve(cpu);
    });
    server.send({ type: 'cpu', id });
  });

  const measure = (client: ClientName, concurrency: number): Promise<ClientResult> => {
    const child = fork(here('./download/client-run.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const job: ClientJob = { type: 'job', client, base: `http://127.0.0.1:${ready.port}`, concurrency, requests: REQUESTS, warmup: WARMUP, lengths: ready.lengths };
    return new Promise((resolve, reject) => {
      let result: ClientResult | null = null;
      child.on('message', (message: ClientResult | { type: 'server-cpu'; id: number }) => {
        if (message.type === 'server-cpu') void askServer(message.id).then((cpu) => child.send(cpu));
        else result = message;
      });
      child.once('error', reject);
      child.once('exit', (code) => (result !== null ? resolve(result) : reject(new Error(`${CLIENTS[client].label}: the measuring process exited with status ${code}`))));
      child.send(job);
    });
  };

  const mean = Math.round(ready.lengths.reduce((a, b) => a + b, 0) / ready.lengths.length);
  console.log(`Node ${process.version} (bundled undici ${process.versions.undici}), got ${gotVersion()}, load average ${load()}`);
  console.log(`${REQUESTS.toLocaleString('en-US')} measured GETs per client and mode after ${WARMUP.toLocaleString('en-US')} warm-up GETs, ${RUNS} runs; ${PAGES} pages of ${mean.toLocaleString('en-US')} bytes on average (bench/crawl/site-page.ts), keep-alive, 127.0.0.1`);
  for (const note of notes) console.log(note);
  console.log('');

  const samples: Sample[] = [];
  const loads: string[] = [load()];
  for (let run = 0; run < RUNS; run++) {
    for (const [m, mode] of MODES.entries()) {
      // Rotate the order every run and mode, so no client always goes first or after the same one.
      const shift = (run * MODES.length + m) % clients.length;
      const order = [...clients.slice(shift), ...clients.slice(0, shift)];
      for (const client of order) {
        const r = await measure(client, mode.concurrency);
        const sample: Sample = {
          client: CLIENTS[client].label,
          mode: mode.name,
          reqPerSec: r.requests / r.seconds,
          cpuUs: (r.userUs + r.systemUs) / r.requests,
          serverUs: r.serverUs / r.requests,
          rssLoadMb: (r.rssReady - r.rssStart) / 2 ** 20,
          rssRunMb: (r.rssEnd - r.rssReady) / 2 ** 20,
        };
        samples.push(sample);
        console.log(`run ${run + 1}/${RUNS}  ${mode.name.padEnd(12)}  ${sample.client.padEnd(20)}  ${Math.round(sample.reqPerSec).toLocaleString('en-US').padStart(6)} req/s  ${Math.round(sample.cpuUs).toString().padStart(4)} µs/req (user ${Math.round(r.userUs / r.requests)}, system ${Math.round(r.systemUs / r.requests)})  server ${Math.round(sample.serverUs)} µs/req`);
      }
    }
    loads.push(load());
  }
  server.disconnect();
  await once(server, 'exit');

  const labels = clients.map((c) => CLIENTS[c].label);
  const rank = (mode: string, client: string): number => MODES.findIndex((m) => m.name === mode) * labels.length + labels.indexOf(client);
  const rows = summarize(samples).sort((a, b) => rank(a.mode, a.client) - rank(b.mode, b.client));
  console.log(`\nMedians of ${RUNS} runs (load average before and after each run: ${loads.join(' → ')}):\n`);
  console.log(formatTable(rows));
  const subjects = labels.filter((l) => l === CLIENTS.seine.label || l === CLIENTS['seine-got'].label || l === CLIENTS.got.label);
  const baselines = labels.filter((l) => l !== CLIENTS['seine-got'].label);
  const overhead = formatOverhead(rows, subjects, baselines, PAGE_BUDGET_US);
  if (overhead !== '') console.log(`\nClient CPU per request above the others (difference of medians; % of a crawl page's ~${PAGE_BUDGET_US / 1000} ms of CPU):\n${overhead}`);
  console.log('\nClients:');
  for (const c of clients) console.log(`  ${CLIENTS[c].label}: ${CLIENTS[c].note}`);
}

await main();
