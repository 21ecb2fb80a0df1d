/**
 * Run by big-file.spec.ts in a process of its own (`node --import tsx`), so
 * that its resident memory is the crawl's alone: serves a file of SIZE_MB
 * megabytes generated as it is sent (no fixture, nothing held), crawls one
 * item naming it through FilesPipeline into a folder, samples RSS every
 * 10 ms, and prints what it measured as JSON.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { Spider, crawl } from '../../src/index.js';

const sizeMb = Number(process.argv[2] ?? '300');
const CHUNK = Buffer.alloc(64 * 1024);
for (let i = 0; i < CHUNK.length; i++) CHUNK[i] = (i * 31 + 7) & 0xff;
const total = sizeMb * 1024 * 1024;
const served = createHash('md5');

const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(total) });
  let sent = 0;
  const pump = (): void => {
    while (sent < total) {
      const chunk = CHUNK.subarray(0, Math.min(CHUNK.length, total - sent));
      sent += chunk.length;
      served.update(chunk);
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/big.bin`;

const store = mkdtempSync(join(tmpdir(), 'seine-big-store-'));
const temp = mkdtempSync(join(tmpdir(), 'seine-big-temp-'));
class BigFile extends Spider {
  static override name = 'bigfile';
  override async *start() {
    yield { file_urls: [url] };
  }
}

global.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 10);
const run = crawl(BigFile, {
  settings: { TELNETCONSOLE_ENABLED: false, LOGSTATS_INTERVAL: 0, LOG_LEVEL: 'WARNING', ITEM_PIPELINES: { FilesPipeline: 1 }, FILES_STORE: store, FEED_TEMPDIR: temp, DOWNLOAD_MAXSIZE: 0, DOWNLOAD_WARNSIZE: 0 },
});
const items = await lastValueFrom(run.items$.pipe(toArray()));
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
const files = (items[0] as { files: Array<{ path: string; checksum: string }> }).files;
const stored = files[0] === undefined ? 0 : statSync(join(store, files[0].path)).size;
process.stdout.write(
  JSON.stringify({ before, peak, size: total, stored, checksum: files[0]?.checksum ?? null, served: served.digest('hex'), tempLeft: readdirSync(temp).length }),
);
server.close();
rmSync(store, { recursive: true, force: true });
rmSync(temp, { recursive: true, force: true });
