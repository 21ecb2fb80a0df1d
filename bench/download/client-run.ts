/**
 * One measurement of bench/download-micro.ts, in a fresh process: one client,
 * one concurrency. The process does nothing but this, so its
 * `process.cpuUsage()` over the measured requests is the client's CPU
 * (JavaScript, GC, sockets' system time); the server runs in another process.
 *
 * The parent sends a ClientJob over the IPC channel; this process imports
 * the client's library, makes `warmup` requests (connections, JIT), asks the
 * parent for the server's CPU, makes `requests` measured requests, asks
 * again, and sends back a ClientResult. Each body's length is checked
 * against the page's, so a short read fails the run.
 */

import { CLIENTS, type ClientName } from './clients.js';
import type { ServerCpu } from './server.js';

export interface ClientJob {
  type: 'job';
  client: ClientName;
  base: string;
  concurrency: number;
  requests: number;
  warmup: number;
  /** Bytes of page n at index n - 1 (server.ts's ServerReady.lengths). */
  lengths: number[];
}

export interface ClientResult {
  type: 'result';
  requests: number;
  seconds: number;
  /** process.cpuUsage() over the measured requests, µs. */
  userUs: number;
  systemUs: number;
  /** The server process's CPU over the same requests, µs. */
  serverUs: number;
  /** RSS, bytes: before importing the client, after importing and creating it, after the measured requests. */
  rssStart: number;
  rssReady: number;
  rssEnd: number;
}

async function serverCpu(): Promise<number> {
  const id = Math.random();
  const answer = await new Promise<ServerCpu>((resolve) => {
    const onMessage = (message: ServerCpu): void => {
      if (message.type !== 'cpu' || message.id !== id) return;
      process.off('message', onMessage);
      resolve(message);
    };
    process.on('message', onMessage);
    process.send!({ type: 'server-cpu', id });
  });
  return answer.usage.user + answer.usage.system;
}

async function drive(get: (url: string) => Promise<number>, job: ClientJob, count: number, offset: number): Promise<void> {
  let next = 0;
  const pages = job.lengths.length;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const page = (offset + next++) % pages;
      const size = await get(`${job.base}/page/${page + 1}/`);
      if (size !== job.lengths[page]) throw new Error(`${job.client}: page ${page + 1} came with ${size} bytes, not ${job.lengths[page]}`);
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
}

async function run(job: ClientJob): Promise<ClientResult> {
  const rssStart = process.memoryUsage.rss();
  const client = await CLIENTS[job.client].make();
  const rssReady = process.memoryUsage.rss();
  await drive(client.get, job, job.warmup, 0);
  const serverBefore = await serverCpu();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await drive(client.get, job, job.requests, job.warmup);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  const serverAfter = await serverCpu();
  const rssEnd = process.memoryUsage.rss();
  await client.close();
  return { type: 'result', requests: job.requests, seconds, userUs: used.user, systemUs: used.system, serverUs: serverAfter - serverBefore, rssStart, rssReady, rssEnd };
}

if (process.send === undefined) throw new Error('bench/download/client-run.ts is started by bench/download-micro.ts (it needs an IPC channel)');
process.once('message', (job: ClientJob) => {
  run(job).then(
    // Exit rather than wait for idle keep-alive sockets (global fetch's dispatcher cannot be closed).
    (result) => process.send!(result, () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
