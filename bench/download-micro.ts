/**
 * Requests per second of seine's downloader (createGotFetch) against got's
 * own promise API and plain node:http, sequential and 16 at a time, on a
 * local keep-alive server. The server runs in a worker thread so that it
 * does not share the client's event loop; it listens on 127.0.0.1 only.
 * Bounded: a fixed number of requests per run, a few runs, then it exits.
 *
 *   node --import tsx bench/download-micro.ts [requests=3000] [bodyBytes=12288] [runs=3]
 */
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import got from 'got';
import { createGotFetch } from '../src/download/fetch-got.js';
import { Request } from '../src/http/request.js';

const REQUESTS = Number(process.argv[2] ?? 3000);
const BODY_BYTES = Number(process.argv[3] ?? 12 * 1024);
const RUNS = Number(process.argv[4] ?? 3);

const SERVER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const body = Buffer.alloc(workerData.bodyBytes, 'x');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', () => server.close(() => process.exit(0)));
`;

type Get = (url: string) => Promise<number>;

function nodeHttpGet(): { get: Get; close(): void } {
  const agent = new http.Agent({ keepAlive: true });
  const get: Get = (url) => new Promise((resolve, reject) => {
    http.get(url, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks).length));
      res.on('error', reject);
    }).on('error', reject);
  });
  return { get, close: () => agent.destroy() };
}

function gotPromiseGet(): { get: Get; close(): void } {
  const agent = new http.Agent({ keepAlive: true });
  const client = got.extend({ retry: { limit: 0 }, followRedirect: false, throwHttpErrors: false, decompress: false, agent: { http: agent } });
  return { get: async (url) => (await client(url, { responseType: 'buffer' })).body.length, close: () => agent.destroy() };
}

function seineGet(): { get: Get; close(): void } {
  const fetch = createGotFetch();
  const signal = new AbortController().signal;
  const options = { signal, timeoutMs: 180_000, maxSize: 1024 * 1024 * 1024, warnSize: 32 * 1024 * 1024, proxy: null };
  return { get: async (url) => (await fetch(new Request(url), options)).body.length, close: () => fetch.close() };
}

async function measure(get: Get, base: string, concurrency: number): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async (): Promise<void> => {
    while (next < REQUESTS) {
      const i = next++;
      const size = await get(`${base}/page/${i}`);
      if (size !== BODY_BYTES) throw new Error(`short body: ${size}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return REQUESTS / seconds;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const server = new Worker(SERVER, { eval: true, workerData: { bodyBytes: BODY_BYTES } });
  const port = await new Promise<number>((resolve) => server.once('message', resolve));
  const base = `http://127.0.0.1:${port}`;
  const clients = { 'node:http': nodeHttpGet, 'got (promise API)': gotPromiseGet, 'seine createGotFetch': seineGet };
  console.log(`${REQUESTS} GETs of ${BODY_BYTES} bytes per run, ${RUNS} runs, median requests/s`);
  for (const concurrency of [1, 16]) {
    for (const [name, make] of Object.entries(clients)) {
      const client = make();
      await measure(client.get, base, concurrency); // warm-up: connections, JIT
      const rates: number[] = [];
      for (let run = 0; run < RUNS; run++) rates.push(await measure(client.get, base, concurrency));
      client.close();
      console.log(`${concurrency === 1 ? 'sequential' : `${concurrency} concurrent`}\t${name.padEnd(22)}\t${Math.round(median(rates))} req/s\t(runs: ${rates.map(Math.round).join(', ')})`);
    }
  }
  server.postMessage('stop');
  await new Promise((resolve) => server.once('exit', resolve));
}

await main();
