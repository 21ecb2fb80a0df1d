/**
 * bench:media's site, run as a process of its own (so the crawler measured
 * has a core to itself): `node --import tsx bench/media/site-server.ts <images>`.
 * Prints `{"url": …}` on one line once it listens; stops when stdin closes.
 *
 *   /list/<n>      a page of PER_PAGE products, each one `<img src="/img/<i>.<ext>">`
 *   /img/<i>.<ext> source image i mod SOURCES (source-images.ts)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeSourceImages, PER_PAGE, SOURCES } from './source-images.js';

const images = Number(process.argv[2] ?? 2000);
const sources = await makeSourceImages();
let served = 0;

const server = createServer((req, res) => {
  const path = req.url ?? '/';
  const list = /^\/list\/(\d+)$/.exec(path);
  if (list !== null) {
    const first = Number(list[1]) * PER_PAGE;
    const products = [];
    for (let i = first; i < Math.min(first + PER_PAGE, images); i++) {
      products.push(`<div class="product"><img src="/img/${i}.${sources[i % SOURCES]!.extension}"></div>`);
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<html><body>${products.join('\n')}</body></html>`);
    return;
  }
  const image = /^\/img\/(\d+)\.\w+$/.exec(path);
  if (image !== null && Number(image[1]) < images) {
    const source = sources[Number(image[1]) % SOURCES]!;
    served++;
    res.writeHead(200, { 'Content-Type': source.contentType, 'Content-Length': String(source.bytes.length) }).end(source.bytes);
    return;
  }
  if (path === '/__served') {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ images: served }));
    served = 0;
    return;
  }
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => server.close(() => process.exit(0)));
