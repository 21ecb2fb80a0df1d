/**
 * Responses that real servers send and a strict client refuses, each written
 * byte for byte by a raw TCP server on 127.0.0.1: header sections past
 * node's 16 KiB, malformed header lines, gzip bodies whose trailer lies or
 * is cut off. Scrapy 2.8 (the oracle) reads each of them.
 */
import { describe, expect, it } from '@jest/globals';
import zlib from 'node:zlib';
import { describeEachClient } from './http-clients.js';
import { HeadersTooLargeError, InvalidResponseError } from '../../src/download/download-errors.js';
import { Request } from '../../src/http/request.js';
import { fetchOptions, startTcpServer, type LocalServer } from './local-server.js';

/** A server answering every request with `head` (CRLF-joined lines, then a blank line) and `body`. */
async function rawServer(head: string[], body: Buffer | string = ''): Promise<LocalServer> {
  return startTcpServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body)])));
  });
}

describeEachClient((local) => {
  describe('gzip bodies whose trailer lies', () => {
    const page = `<html><body>${'<p>hello gzip</p>'.repeat(10_000)}</body></html>`;
    const gzipHead = (length: number): string[] => ['HTTP/1.1 200 OK', 'Content-Type: text/html', 'Content-Encoding: gzip', `Content-Length: ${length}`, 'Connection: close'];

    it('keeps the decoded page when the CRC is wrong', async () => {
      const gz = Buffer.from(zlib.gzipSync(page));
      gz.writeUInt32LE(0xdeadbeef, gz.length - 8);
      local.server = await rawServer(gzipHead(gz.length), gz);
      const response = await local.fetch(new Request(local.server.url), fetchOptions());
      expect([response.text === page, response.headers.get('content-encoding')]).toEqual([true, null]);
    });

    it('keeps the decoded page when the length (ISIZE) is wrong', async () => {
      const gz = Buffer.from(zlib.gzipSync(page));
      gz.writeUInt32LE(12345, gz.length - 4);
      local.server = await rawServer(gzipHead(gz.length), gz);
      const response = await local.fetch(new Request(local.server.url), fetchOptions());
      expect(response.text === page).toBe(true);
    });

    it('keeps what a truncated gzip body decodes to, as Scrapy does', async () => {
      const gz = zlib.gzipSync('<html><body><p>hello gzip</p></body></html>').subarray(0, 30);
      local.server = await rawServer(gzipHead(gz.length), gz);
      const response = await local.fetch(new Request(local.server.url), fetchOptions());
      // Scrapy 2.8's `scrapy fetch` of the same bytes prints `<html><body><p>hell`.
      expect(response.text).toBe('<html><body><p>hell');
    });
  });

  describe('large header sections (DOWNLOAD_MAXHEADERSIZE)', () => {
    it('returns all 700 Set-Cookie lines and the body', async () => {
      const cookies = Array.from({ length: 700 }, (_, i) => `Set-Cookie: c${i}=${'v'.repeat(20)}; Path=/`);
      local.server = await rawServer(['HTTP/1.1 200 OK', ...cookies, 'Content-Length: 5', 'Connection: close'], 'hello');
      const response = await local.fetch(new Request(local.server.url), fetchOptions());
      expect([response.text, response.headers.getList('set-cookie').length, response.headers.getList('set-cookie')[699]]).toEqual(['hello', 700, `c699=${'v'.repeat(20)}; Path=/`]);
    });

    it('keeps every one of 3,000 headers (node drops those past ~1,000 unless told not to)', async () => {
      local.server = await rawServer(['HTTP/1.1 200 OK', ...Array.from({ length: 3000 }, (_, i) => `X-H${i}: ${i}`), 'Content-Length: 5', 'Connection: close'], 'hello');
      const response = await local.fetch(new Request(local.server.url), fetchOptions());
      expect([response.text, response.headers.get('x-h2999')]).toEqual(['hello', '2999']);
    });

    it('returns a page with a single 20 KB header', async () => {
      local.server = await rawServer(['HTTP/1.1 200 OK', `X-Big: ${'a'.repeat(20_000)}`, 'Content-Length: 5', 'Connection: close'], 'hello');
      const response = await local.fetch(new Request(local.server.url), fetchOptions());
      expect([response.text, response.headers.get('x-big')?.length]).toEqual(['hello', 20_000]);
    });

    it('fails with HeadersTooLargeError naming the setting when the headers pass it', async () => {
      local.replaceClient({ maxHeaderSize: 64 * 1024 });
      local.server = await rawServer(['HTTP/1.1 200 OK', `X-Big: ${'a'.repeat(70_000)}`, 'Content-Length: 5', 'Connection: close'], 'hello');
      const error = (await local.fetch(new Request(local.server.url), fetchOptions()).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(HeadersTooLargeError);
      expect(error.message).toBe(`Response headers of ${local.server.url} exceed DOWNLOAD_MAXHEADERSIZE (65536 bytes): raise it with -s DOWNLOAD_MAXHEADERSIZE=262144 (or in settings) to accept them.`);
    });
  });

  describe('malformed responses browsers read (DOWNLOAD_LENIENT_HTTP)', () => {
    it('reads a folded (obs-fold) header line as one value', async () => {
      local.server = await rawServer(['HTTP/1.1 200 OK', 'X-Folded: one', ' two', 'Content-Type: text/html', 'Content-Length: 5', 'Connection: close'], 'hello');
      const response = await local.fetch(new Request(local.server.url), fetchOptions());
      expect([response.text, response.headers.get('x-folded'), response.headers.get('content-type')]).toEqual(['hello', 'one two', 'text/html']);
    });

    it('reads a response whose lines end in a bare LF', async () => {
      local.server = await startTcpServer((socket) => {
        socket.on('error', () => undefined);
        socket.once('data', () => socket.end('HTTP/1.1 200 OK\nContent-Type: text/html\nContent-Length: 5\nConnection: close\n\nhello'));
      });
      const response = await local.fetch(new Request(local.server.url), fetchOptions());
      expect([response.status, response.text, response.headers.get('content-type')]).toEqual([200, 'hello', 'text/html']);
    });

    it('reads a chunked body that also has a Content-Length, and closes that connection instead of reusing it', async () => {
      let connections = 0;
      local.server = await startTcpServer((socket) => {
        connections++;
        socket.on('error', () => undefined);
        socket.on('data', () => socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n5\r\nhello\r\n0\r\n\r\n'));
      });
      const first = await local.fetch(new Request(`${local.server.url}/a`), fetchOptions());
      const second = await local.fetch(new Request(`${local.server.url}/b`), fetchOptions());
      expect([first.text, second.text, connections]).toEqual(['hello', 'hello', 2]);
    });

    it('reads a header with blanks before its colon, and the next response on the same connection', async () => {
      local.server = await startTcpServer((socket) => {
        socket.on('error', () => undefined);
        socket.on('data', () => socket.write('HTTP/1.1 200 OK\r\nContent-Type : text/html\r\nX-Tabbed\t: a : b\r\nContent-Length: 5\r\n\r\nhello'));
      });
      const first = await local.fetch(new Request(`${local.server.url}/a`), fetchOptions());
      const second = await local.fetch(new Request(`${local.server.url}/b`), fetchOptions());
      expect([first.text, first.headers.get('content-type'), first.headers.get('x-tabbed'), second.text, second.headers.get('content-type')])
        .toEqual(['hello', 'text/html', 'a : b', 'hello', 'text/html']);
    });

    it('refuses them with InvalidResponseError when lenientHttp is off', async () => {
      local.replaceClient({ lenientHttp: false });
      local.server = await rawServer(['HTTP/1.1 200 OK', 'X-Folded: one', ' two', 'Content-Length: 5', 'Connection: close'], 'hello');
      const error = (await local.fetch(new Request(local.server.url), fetchOptions()).catch((e: unknown) => e)) as Error;
      expect([error instanceof InvalidResponseError, (error as InvalidResponseError).parserCode]).toEqual([true, 'HPE_INVALID_HEADER_TOKEN']);
    });
  });
});
