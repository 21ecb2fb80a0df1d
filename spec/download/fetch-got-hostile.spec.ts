/**
 * Responses that real servers send and a strict client refuses, each written
 * byte for byte by a raw TCP server on 127.0.0.1: gzip bodies whose trailer
 * lies or is cut off. Scrapy 2.8 (the oracle) reads each of them.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import zlib from 'node:zlib';
import { createGotFetch, type GotFetch } from '../../src/download/fetch-got.js';
import { Request } from '../../src/http/request.js';
import { fetchOptions, startTcpServer, type LocalServer } from './local-server.js';

let server: LocalServer | null = null;
let fetch: GotFetch = createGotFetch();

afterEach(async () => {
  fetch.close();
  fetch = createGotFetch();
  await server?.close();
  server = null;
});

/** A server answering every request with `head` (CRLF-joined lines, then a blank line) and `body`. */
async function rawServer(head: string[], body: Buffer | string = ''): Promise<LocalServer> {
  return startTcpServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body)])));
  });
}

describe('createGotFetch: gzip bodies whose trailer lies', () => {
  const page = `<html><body>${'<p>hello gzip</p>'.repeat(10_000)}</body></html>`;
  const gzipHead = (length: number): string[] => ['HTTP/1.1 200 OK', 'Content-Type: text/html', 'Content-Encoding: gzip', `Content-Length: ${length}`, 'Connection: close'];

  it('keeps the decoded page when the CRC is wrong', async () => {
    const gz = Buffer.from(zlib.gzipSync(page));
    gz.writeUInt32LE(0xdeadbeef, gz.length - 8);
    server = await rawServer(gzipHead(gz.length), gz);
    const response = await fetch(new Request(server.url), fetchOptions());
    expect([response.text === page, response.headers.get('content-encoding')]).toEqual([true, null]);
  });

  it('keeps the decoded page when the length (ISIZE) is wrong', async () => {
    const gz = Buffer.from(zlib.gzipSync(page));
    gz.writeUInt32LE(12345, gz.length - 4);
    server = await rawServer(gzipHead(gz.length), gz);
    const response = await fetch(new Request(server.url), fetchOptions());
    expect(response.text === page).toBe(true);
  });

  it('keeps what a truncated gzip body decodes to, as Scrapy does', async () => {
    const gz = zlib.gzipSync('<html><body><p>hello gzip</p></body></html>').subarray(0, 30);
    server = await rawServer(gzipHead(gz.length), gz);
    const response = await fetch(new Request(server.url), fetchOptions());
    // Scrapy 2.8's `scrapy fetch` of the same bytes prints `<html><body><p>hell`.
    expect(response.text).toBe('<html><body><p>hell');
  });
});
