import { readdirSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { startSite, type Route } from './site-server.js';

/**
 * The image test site: a real HTTP server on 127.0.0.1 (a free port) serving
 * the fixture images of spec/media/fixtures/images/ (written by
 * spec/media/fixtures/make-images.py with Pillow, so Scrapy's oracle and seine
 * read the same bytes) and the awkward answers a media pipeline must survive.
 *
 *   /                      an HTML page: one `<div class="product">` per image, its `<img src>`
 *                          (every fixture, /empty.jpg, /missing.jpg, /redirect/photo.jpg,
 *                          /truncated.jpg), for a spider to yield items
 *   /images/<name>         a fixture (JPEG, PNG RGBA/LA/palette, WebP, GIF palette/animated,
 *                          CMYK JPEG, 1×1 tiny.jpg, broken.jpg: HTML bytes under a .jpg name)
 *   /empty.jpg             200 with a 0-byte body
 *   /missing.jpg           404
 *   /redirect/<name>       302 to /images/<name>
 *   /truncated.jpg         promises photo.jpg's length, sends half, then drops the connection
 *   /big?bytes=N           N bytes of application/octet-stream, streamed (N up to several GB)
 */
export interface ImageSite {
  /** The absolute URL of `path` on this site, e.g. url('/images/photo.jpg'). */
  url(path: string): string;
  /** How many requests asked for exactly `path` (query included). */
  hits(path: string): number;
  close(): Promise<void>;
}

export const IMAGE_FIXTURES = new URL('../media/fixtures/images/', import.meta.url);

/** The fixture files' names, sorted. */
export function imageFixtureNames(): string[] {
  return readdirSync(IMAGE_FIXTURES).sort();
}

export function readImageFixture(name: string): Buffer {
  return readFileSync(new URL(name, IMAGE_FIXTURES));
}

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

export async function startImageSite(): Promise<ImageSite> {
  const names = imageFixtureNames();
  const routes: Record<string, Route | string> = {
    '/': listingPage(names),
    '/empty.jpg': (_req, res) => res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': '0' }).end(),
    '/truncated.jpg': (_req, res) => {
      const bytes = readImageFixture('photo.jpg');
      res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': String(bytes.length) });
      res.write(bytes.subarray(0, bytes.length >> 1), () => res.destroy());
    },
    '/big': (req, res) => streamBytes(res, Number(new URL(req.url ?? '/', 'http://x').searchParams.get('bytes') ?? 0)),
  };
  for (const name of names) {
    const bytes = readImageFixture(name);
    const type = CONTENT_TYPES[extname(name)] ?? 'application/octet-stream';
    routes[`/images/${name}`] = (_req, res) => res.writeHead(200, { 'Content-Type': type, 'Content-Length': String(bytes.length) }).end(bytes);
    routes[`/redirect/${name}`] = (_req, res) => res.writeHead(302, { Location: `/images/${name}` }).end();
  }
  const site = await startSite(routes);
  return {
    url: (path) => site.url(path),
    hits: (path) => site.hits.filter((hit) => hit === path).length,
    close: () => site.close(),
  };
}

function listingPage(names: string[]): string {
  const sources = [...names.map((name) => `/images/${name}`), '/empty.jpg', '/missing.jpg', '/redirect/photo.jpg', '/truncated.jpg'];
  const products = sources.map((src) => `<div class="product"><img src="${src}"></div>`).join('\n');
  return `<!DOCTYPE html>\n<html><head><title>Images</title></head><body>\n${products}\n</body></html>\n`;
}

// 64 KiB chunks written as the socket drains, so a multi-GB answer costs the
// server no memory; the bytes cycle through 0..255 so a stored copy can be checked.
function streamBytes(res: ServerResponse, total: number): void {
  if (!Number.isSafeInteger(total) || total < 0) {
    res.writeHead(400, { 'Content-Type': 'text/plain' }).end('bytes must be a non-negative integer\n');
    return;
  }
  const chunk = Buffer.alloc(64 * 1024, 0);
  for (let i = 0; i < chunk.length; i++) chunk[i] = i & 0xff;
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(total) });
  let sent = 0;
  const pump = (): void => {
    while (sent < total) {
      const size = Math.min(chunk.length, total - sent);
      sent += size;
      if (!res.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  res.on('close', () => res.removeListener('drain', pump));
  pump();
}
