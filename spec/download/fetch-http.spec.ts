import { describe, expect, it } from '@jest/globals';
import zlib from 'node:zlib';
import type net from 'node:net';
import { httpFetchOptionsFromSettings } from '../../src/download/fetch-node.js';
import { describeEachClient } from './http-clients.js';
import { Settings } from '../../src/settings/index.js';
import {
  AbortError, ConnectionLostError, ConnectionRefusedError, DecompressionError, DnsLookupError, DownloadError, MaxSizeError, TimeoutError,
} from '../../src/download/download-errors.js';
import { Request } from '../../src/http/request.js';
import { closed, closedPort, fetchOptions, startHttpServer, startHttpsServer, startTcpServer, type LocalServer } from './local-server.js';

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the download to fail');
}

describeEachClient((local) => {
  describe('responses', () => {
    it('returns a 200 response with its body, the request, the peer address and the protocol', async () => {
      local.server = await startHttpServer((_req, res) => res.end('hello'));
      const request = new Request(`${local.server.url}/page`);
      const response = await local.fetch(request, fetchOptions());
      expect([response.url, response.status, response.body.toString(), response.ip, response.protocol]).toEqual([
        `${local.server.url}/page`, 200, 'hello', '127.0.0.1', 'HTTP/1.1',
      ]);
      expect(response.request).toBe(request);
      expect(response.flags).toEqual([]);
    });

    it('returns 404 and 500 responses with their bodies instead of failing', async () => {
      local.server = await startHttpServer((req, res) => {
        res.statusCode = req.url === '/missing' ? 404 : 500;
        res.end(`body of ${req.url}`);
      });
      const missing = await local.fetch(new Request(`${local.server.url}/missing`), fetchOptions());
      const broken = await local.fetch(new Request(`${local.server.url}/broken`), fetchOptions());
      expect([missing.status, missing.body.toString(), broken.status, broken.body.toString()]).toEqual([404, 'body of /missing', 500, 'body of /broken']);
    });

    it('returns every header value as sent, Set-Cookie many times', async () => {
      local.server = await startHttpServer((_req, res) => {
        res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2', 'c=3; HttpOnly']);
        res.setHeader('X-Custom', 'yes');
        res.end('ok');
      });
      const response = await local.fetch(new Request(local.server.url), fetchOptions());
      expect(response.headers.getList('set-cookie')).toEqual(['a=1; Path=/', 'b=2', 'c=3; HttpOnly']);
      expect(response.headers.get('x-custom')).toBe('yes');
      expect(response.headers.get('Content-Length')).toBe('2');
    });

    it('does not follow redirects: the 302 itself comes back', async () => {
      local.server = await startHttpServer((_req, res) => {
        res.writeHead(302, { Location: '/elsewhere' }).end('moved');
      });
      const response = await local.fetch(new Request(`${local.server.url}/from`), fetchOptions());
      expect([response.status, response.headers.get('location'), response.body.toString()]).toEqual([302, '/elsewhere', 'moved']);
    });

    it('returns no body for HEAD even with a Content-Length', async () => {
      local.server = await startHttpServer((_req, res) => res.writeHead(200, { 'Content-Length': '5000' }).end());
      const response = await local.fetch(new Request(local.server.url, { method: 'HEAD' }), fetchOptions({ maxSize: 100 }));
      expect([response.status, response.body.length]).toEqual([200, 0]);
    });

    it('downloads over HTTPS from a server with a self-signed certificate', async () => {
      local.server = await startHttpsServer((_req, res) => res.end('secret'));
      const response = await local.fetch(new Request(`${local.server.url}/`), fetchOptions());
      expect([response.status, response.body.toString(), response.protocol]).toEqual([200, 'secret', 'HTTP/1.1']);
    });
  });

  describe('what goes on the wire', () => {
    function echoServer(): Promise<LocalServer> {
      return startHttpServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() })));
      });
    }

    it("sends a POST's method, headers and body, and no user-agent of got's own", async () => {
      local.server = await echoServer();
      const request = new Request(`${local.server.url}/form?x=1#fragment`, {
        method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Many': ['1', '2'] }, body: 'a=1&b=2',
      });
      const response = await local.fetch(request, fetchOptions());
      expect(response.url).toBe(`${local.server.url}/form?x=1`);
      const echo = response.json();
      expect(echo).toEqual({
        method: 'POST',
        url: '/form?x=1',
        headers: {
          host: `127.0.0.1:${local.server.port}`,
          connection: 'keep-alive',
          'content-type': 'application/x-www-form-urlencoded',
          'x-many': '1, 2',
          'accept-encoding': 'gzip, deflate, br',
          'content-length': '7',
        },
        body: 'a=1&b=2',
      });
    });

    it("sends the request's User-Agent and Accept-Encoding unchanged", async () => {
      local.server = await echoServer();
      const request = new Request(local.server.url, { headers: { 'User-Agent': 'seine-test/1', 'Accept-Encoding': 'identity' } });
      const echo = (await local.fetch(request, fetchOptions())).json() as { headers: Record<string, string> };
      expect([echo.headers['user-agent'], echo.headers['accept-encoding']]).toEqual(['seine-test/1', 'identity']);
    });

    it('sends Content-Length: 0 for an empty POST and no body headers for an empty GET or DELETE', async () => {
      local.server = await echoServer();
      const lengths = [];
      for (const method of ['POST', 'GET', 'DELETE']) {
        const echo = (await local.fetch(new Request(local.server.url, { method }), fetchOptions())).json() as { headers: Record<string, string> };
        lengths.push([method, echo.headers['content-length'] ?? null, echo.headers['transfer-encoding'] ?? null]);
      }
      expect(lengths).toEqual([['POST', '0', null], ['GET', null, null], ['DELETE', null, null]]);
    });

    it('sends the credentials of a URL as Basic Authorization, percent-decoded', async () => {
      local.server = await echoServer();
      const url = local.server.url.replace('//', '//us%40er:p%3Ass@');
      const echo = (await local.fetch(new Request(`${url}/private`), fetchOptions())).json() as { url: string; headers: Record<string, string> };
      expect([echo.url, echo.headers['authorization']]).toEqual(['/private', `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`]);
    });

    it('fails with a DownloadError, not a TypeError, on a header value that cannot go on the wire', async () => {
      local.server = await echoServer();
      const error = await failure(local.fetch(new Request(local.server.url, { headers: { 'X-Bad': 'a\u0000b' } }), fetchOptions()));
      expect(error).toBeInstanceOf(DownloadError);
      expect(error.message).toMatch(/^Error downloading http:\/\/127\.0\.0\.1:\d+\/?: Invalid character in header content \["x-bad"\] \(ERR_INVALID_CHAR\)\.$/);
    });
  });

  describe('compression', () => {
    const text = 'compressed text '.repeat(50);
    const encoders: Record<string, (body: Buffer) => Buffer> = {
      gzip: (body) => zlib.gzipSync(body),
      deflate: (body) => zlib.deflateSync(body),
      br: (body) => zlib.brotliCompressSync(body),
    };

    it.each(['gzip', 'deflate', 'br'])('decodes a %s body and drops Content-Encoding', async (encoding) => {
      local.server = await startHttpServer((_req, res) => {
        res.writeHead(200, { 'Content-Encoding': encoding, 'Content-Type': 'text/plain' }).end(encoders[encoding]!(Buffer.from(text)));
      });
      const response = await local.fetch(new Request(local.server.url), fetchOptions());
      expect([response.body.toString(), response.headers.has('content-encoding')]).toEqual([text, false]);
    });

    it('decodes a raw deflate stream sent as deflate, as Scrapy does', async () => {
      local.server = await startHttpServer((_req, res) => res.writeHead(200, { 'Content-Encoding': 'deflate' }).end(zlib.deflateRawSync(Buffer.from(text))));
      expect((await local.fetch(new Request(local.server.url), fetchOptions())).body.toString()).toBe(text);
    });

    it('with compression off, asks for none and leaves a compressed body as it came', async () => {
      local.replaceClient({ compression: false });
      const gzipped = zlib.gzipSync(Buffer.from(text));
      let asked: string | undefined;
      local.server = await startHttpServer((req, res) => {
        asked = req.headers['accept-encoding'];
        res.writeHead(200, { 'Content-Encoding': 'gzip' }).end(gzipped);
      });
      const response = await local.fetch(new Request(local.server.url), fetchOptions());
      expect([asked, response.body.equals(gzipped), response.headers.get('content-encoding')]).toEqual([undefined, true, 'gzip']);
    });

    it('fails with a DecompressionError on an invalid gzip body', async () => {
      local.server = await startHttpServer((_req, res) => res.writeHead(200, { 'Content-Encoding': 'gzip' }).end('this is not gzip'));
      const error = await failure(local.fetch(new Request(`${local.server.url}/bad`), fetchOptions()));
      expect(error).toBeInstanceOf(DecompressionError);
      expect([error.name, error.message]).toEqual([
        'DecompressionError',
        `Could not decode the gzip body of ${local.server.url}/bad: incorrect header check. The server sent a corrupt body; set COMPRESSION_ENABLED = false to receive it undecoded.`,
      ]);
    });

    it('fails with a MaxSizeError when the decoded body passes maxSize', async () => {
      const gzipped = zlib.gzipSync(Buffer.alloc(100_000));
      local.server = await startHttpServer((_req, res) => res.writeHead(200, { 'Content-Encoding': 'gzip' }).end(gzipped));
      const error = await failure(local.fetch(new Request(`${local.server.url}/`), fetchOptions({ maxSize: 10_000 })));
      // Inflating stops at the first 64 KiB chunk past the limit.
      expect([error.name, error.message, (error as MaxSizeError).stage, (error as MaxSizeError).size]).toEqual([
        'MaxSizeError',
        `Cancelling download of ${local.server.url}/: decompressed response size (at least 65536, from ${gzipped.length} bytes of gzip body) larger than download max size (10000). Raise DOWNLOAD_MAXSIZE or set meta.download_maxsize (0 = no limit) to accept it.`,
        'decompressed',
        65_536,
      ]);
    });

    it('calls onWarnSize once with the decoded size when only the decoded body passes warnSize', async () => {
      local.server = await startHttpServer((_req, res) => res.writeHead(200, { 'Content-Encoding': 'gzip' }).end(zlib.gzipSync(Buffer.alloc(5000))));
      const warnings: Array<[number, string]> = [];
      const response = await local.fetch(new Request(`${local.server.url}/`), fetchOptions({ warnSize: 1000, onWarnSize: (size, stage) => warnings.push([size, stage]) }));
      expect([response.body.length, warnings]).toEqual([5000, [[5000, 'decompressed']]]);
    });

    it('warns only once, on the wire bytes, when both the wire and the decoded body pass warnSize', async () => {
      const gzipped = zlib.gzipSync(Buffer.alloc(20_000, 'x'), { level: 0 });
      local.server = await startHttpServer((_req, res) => res.writeHead(200, { 'Content-Encoding': 'gzip' }).end(gzipped));
      const warnings: Array<[number, string]> = [];
      await local.fetch(new Request(`${local.server.url}/`), fetchOptions({ warnSize: 1000, onWarnSize: (size, stage) => warnings.push([size, stage]) }));
      expect(warnings).toEqual([[gzipped.length, 'received']]);
    });
  });

  describe('network failures', () => {
    it('fails with ConnectionRefusedError on a closed port', async () => {
      const port = await closedPort();
      const error = await failure(local.fetch(new Request(`http://127.0.0.1:${port}/x`), fetchOptions()));
      expect(error).toBeInstanceOf(ConnectionRefusedError);
      expect([error.name, (error as ConnectionRefusedError).code, error.message]).toEqual([
        'ConnectionRefusedError',
        'SEINE_CONNECTION_REFUSED',
        `Connection was refused by other side: 127.0.0.1:${port} (getting http://127.0.0.1:${port}/x). Check that the server is running and listens on that port.`,
      ]);
      expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
    });

    it("fails with DnsLookupError in Scrapy's words on a host that does not resolve", async () => {
      const error = await failure(local.fetch(new Request('http://nohost.invalid/page'), fetchOptions()));
      expect(error).toBeInstanceOf(DnsLookupError);
      expect([error.message, (error as DnsLookupError).url]).toEqual(["DNS lookup failed: address 'nohost.invalid' not found", 'http://nohost.invalid/page']);
    });

    it('fails with TimeoutError when the server never answers, after timeoutMs', async () => {
      local.server = await startTcpServer((socket) => socket.resume());
      const started = Date.now();
      const error = await failure(local.fetch(new Request(`${local.server.url}/slow`), fetchOptions({ timeoutMs: 200 })));
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.message).toBe(`Getting ${local.server.url}/slow took longer than 0.2 seconds.`);
      expect(elapsed).toBeGreaterThanOrEqual(190);
      expect(elapsed).toBeLessThan(600);
      await closed(local.server.sockets[0]!);
    });

    it('times out a request still waiting for a pooled connection, without waiting for one to come free', async () => {
      local.server = await startTcpServer((socket) => socket.resume());
      local.replaceClient({ maxSocketsPerHost: 1 });
      const first = failure(local.fetch(new Request(`${local.server.url}/hangs`), fetchOptions({ timeoutMs: 2000 })));
      const started = Date.now();
      const queued = await failure(local.fetch(new Request(`${local.server.url}/queued`), fetchOptions({ timeoutMs: 200 })));
      expect(queued).toBeInstanceOf(TimeoutError);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(await first).toBeInstanceOf(TimeoutError);
    });

    it('counts the body in the timeout: a body that trickles past it fails', async () => {
      local.server = await startHttpServer((_req, res) => {
        res.writeHead(200, { 'Content-Length': '100' });
        res.write('x'.repeat(50));
      });
      const error = await failure(local.fetch(new Request(local.server.url), fetchOptions({ timeoutMs: 200 })));
      expect(error.name).toBe('TimeoutError');
    });

    function halfBodyThenReset(): Promise<LocalServer> {
      return startTcpServer((socket) => {
        socket.once('data', () => {
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n' + 'x'.repeat(500), () => setTimeout(() => socket.destroy(), 20));
        });
      });
    }

    it('fails with ConnectionLostError when the server resets the connection mid-body', async () => {
      local.server = await halfBodyThenReset();
      const error = await failure(local.fetch(new Request(`${local.server.url}/half`), fetchOptions()));
      expect(error).toBeInstanceOf(ConnectionLostError);
      expect(error.message).toBe(
        `Connection to the other side was lost in a non-clean fashion after 500 of 1000 bytes of the body of ${local.server.url}/half (The server aborted pending request). Set DOWNLOAD_FAIL_ON_DATALOSS = false to process broken responses.`,
      );
      expect([(error as ConnectionLostError).received, (error as ConnectionLostError).expected]).toEqual([500, 1000]);
    });

    it("with failOnDataLoss off, returns the broken body flagged 'dataloss'", async () => {
      local.replaceClient({ failOnDataLoss: false });
      local.server = await halfBodyThenReset();
      const response = await local.fetch(new Request(local.server.url), fetchOptions());
      expect([response.status, response.body.length, response.flags]).toEqual([200, 500, ['dataloss']]);
    });

    it('lets failOnDataLoss in the call options override the factory setting, as meta.download_fail_on_dataloss does', async () => {
      local.server = await halfBodyThenReset();
      const call = { ...fetchOptions(), failOnDataLoss: false };
      const response = await local.fetch(new Request(local.server.url), call);
      expect(response.flags).toEqual(['dataloss']);
    });

    it('fails with ConnectionLostError when the connection closes before any response', async () => {
      local.server = await startTcpServer((socket) => socket.once('data', () => socket.destroy()));
      const error = await failure(local.fetch(new Request(`${local.server.url}/`), fetchOptions()));
      expect([error.name, error.message]).toEqual([
        'ConnectionLostError',
        `Connection to the other side was lost before a response was received from ${local.server.url}/ (socket hang up).`,
      ]);
    });

    it('retries once on a fresh connection when a kept-alive socket turns out closed', async () => {
      let connections = 0;
      local.server = await startTcpServer((socket) => {
        connections += 1;
        let requests = 0;
        socket.on('data', () => {
          requests += 1;
          // The first connection answers once, then drops the next request on it unanswered.
          if (connections === 1 && requests === 2) socket.destroy();
          else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
        });
      });
      const first = await local.fetch(new Request(`${local.server.url}/1`), fetchOptions());
      const second = await local.fetch(new Request(`${local.server.url}/2`), fetchOptions());
      expect([first.body.toString(), second.body.toString(), connections]).toEqual(['ok', 'ok', 2]);
    });
  });

  describe('size limits', () => {
    it('refuses a body whose Content-Length passes maxSize before reading it, and closes the connection', async () => {
      let serverSocket: net.Socket | null = null;
      local.server = await startHttpServer((req, res) => {
        serverSocket = req.socket;
        res.writeHead(200, { 'Content-Length': '2000' });
        res.write('x'.repeat(100));
      });
      const error = await failure(local.fetch(new Request(`${local.server.url}/big`), fetchOptions({ maxSize: 1000 })));
      expect(error).toBeInstanceOf(MaxSizeError);
      expect(error.message).toBe(
        `Cancelling download of ${local.server.url}/big: expected response size (2000) larger than download max size (1000). Raise DOWNLOAD_MAXSIZE or set meta.download_maxsize (0 = no limit) to accept it.`,
      );
      expect([(error as MaxSizeError).size, (error as MaxSizeError).maxSize]).toEqual([2000, 1000]);
      await closed(serverSocket!);
    });

    it('stops a chunked body as soon as the bytes received pass maxSize', async () => {
      let serverSocket: net.Socket | null = null;
      local.server = await startHttpServer((req, res) => {
        serverSocket = req.socket;
        res.write('a'.repeat(600));
        setTimeout(() => res.write('b'.repeat(600)), 20);
      });
      const error = await failure(local.fetch(new Request(`${local.server.url}/stream`), fetchOptions({ maxSize: 1000 })));
      expect(error.message).toBe(
        `Received (1200) bytes larger than download max size (1000) in request <GET ${local.server.url}/stream>. Raise DOWNLOAD_MAXSIZE or set meta.download_maxsize (0 = no limit) to accept it.`,
      );
      expect((error as MaxSizeError).stage).toBe('received');
      await closed(serverSocket!);
    });

    it('calls onWarnSize once, with the Content-Length, when it passes warnSize', async () => {
      local.server = await startHttpServer((_req, res) => res.end('x'.repeat(3000)));
      const sizes: number[] = [];
      const stages: string[] = [];
      const response = await local.fetch(new Request(local.server.url), fetchOptions({ warnSize: 1000, onWarnSize: (size, stage) => (sizes.push(size), stages.push(stage)) }));
      expect([response.body.length, sizes, stages]).toEqual([3000, [3000], ['expected']]);
    });

    it('calls onWarnSize once, with the bytes received so far, when a chunked body passes warnSize', async () => {
      local.server = await startHttpServer((_req, res) => {
        res.write('a'.repeat(800));
        setTimeout(() => res.write('b'.repeat(800)), 10);
        setTimeout(() => res.end('c'.repeat(800)), 20);
      });
      const sizes: number[] = [];
      await local.fetch(new Request(local.server.url), fetchOptions({ warnSize: 1000, onWarnSize: (size) => sizes.push(size) }));
      expect(sizes).toEqual([1600]);
    });
  });

  describe('aborting', () => {
    it('aborts an in-flight transfer when the signal fires: AbortError, and the server sees the socket close', async () => {
      let serverSocket: net.Socket | null = null;
      let wroteHalf: () => void = () => undefined;
      const halfWritten = new Promise<void>((resolve) => {
        wroteHalf = resolve;
      });
      local.server = await startHttpServer((req, res) => {
        serverSocket = req.socket;
        res.writeHead(200, { 'Content-Length': '1000' });
        res.write('x'.repeat(500), () => wroteHalf());
      });
      const controller = new AbortController();
      const download = failure(local.fetch(new Request(`${local.server.url}/slow`), fetchOptions({ signal: controller.signal })));
      await halfWritten;
      const reason = new Error('crawl cancelled');
      controller.abort(reason);
      const error = await download;
      expect(error).toBeInstanceOf(AbortError);
      expect([error.name, (error as AbortError).code, error.message, error.cause]).toEqual([
        'AbortError', 'SEINE_DOWNLOAD_ABORTED', `Download of ${local.server.url}/slow was aborted.`, reason,
      ]);
      await closed(serverSocket!);
    });

    it('does not connect at all when the signal has already fired', async () => {
      local.server = await startHttpServer((_req, res) => res.end('ok'));
      const controller = new AbortController();
      controller.abort();
      const error = await failure(local.fetch(new Request(local.server.url), fetchOptions({ signal: controller.signal })));
      expect([error.name, local.server.sockets.length]).toEqual(['AbortError', 0]);
    });
  });
});

describe('httpFetchOptionsFromSettings', () => {
  it('reads COMPRESSION_ENABLED, DOWNLOAD_FAIL_ON_DATALOSS, DOWNLOAD_MAXHEADERSIZE, DOWNLOAD_LENIENT_HTTP and WARC_ENABLED', () => {
    expect(httpFetchOptionsFromSettings(new Settings())).toEqual({ compression: true, failOnDataLoss: true, maxHeaderSize: 1048576, lenientHttp: true, keepWire: false });
    expect(httpFetchOptionsFromSettings(new Settings({ COMPRESSION_ENABLED: false, DOWNLOAD_FAIL_ON_DATALOSS: false, DOWNLOAD_MAXHEADERSIZE: 65536, DOWNLOAD_LENIENT_HTTP: false, WARC_ENABLED: true })))
      .toEqual({ compression: false, failOnDataLoss: false, maxHeaderSize: 65536, lenientHttp: false, keepWire: true });
  });
});
