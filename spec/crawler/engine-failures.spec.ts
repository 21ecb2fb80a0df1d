import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Spider, type Response } from '../../src/index.js';
import { runCrawl, slow, startSite, type TestSite } from '../helpers/site-server.js';

/**
 * Failure paths: each gives a log line and a stats entry, and never stops the
 * other requests of the crawl (the healthy /ok page still gives its item).
 */

let site: TestSite;
let refusedUrl: string;
let slowRobots: TestSite;
beforeAll(async () => {
  site = await startSite({
    '/ok': '<html><body>ok</body></html>',
    '/slow': slow(2000),
    '/reset': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': '10000' });
      res.write('<html><body>' + 'x'.repeat(100));
      setTimeout(() => res.socket?.destroy(), 20);
    },
    '/bad-gzip': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' }).end(Buffer.from('this is not gzip at all')),
    '/good-gzip': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' }).end(gzipSync('<p>zipped</p>')),
    '/500': (_req, res) => res.writeHead(500, { 'Content-Type': 'text/html' }).end('down'),
    '/loop': (_req, res) => res.writeHead(302, { Location: '/loop' }).end(),
  });
  // A port that was just free: nothing listens there.
  const closed: Server = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  slowRobots = await startSite({ '/robots.txt': slow(5000, 'User-agent: *\nDisallow: /\n'), '/ok': '<p>ok</p>' });
});
afterAll(async () => {
  await site.close();
  await slowRobots.close();
});

function withHealthy(failing: string) {
  return class Pair extends Spider {
    static override name = 'pair';
    override startUrls = [failing, site.url('/ok')];
    override parse(response: Response) {
      return { url: response.url, status: response.status };
    }
  };
}
const FAST = { RETRY_BACKOFF_BASE: 0 };

describe('failure paths', () => {
  it('connection refused: retried, then logged and counted; the healthy page is scraped', async () => {
    const result = await runCrawl(withHealthy(refusedUrl), FAST);
    expect(result.items).toEqual([{ url: site.url('/ok'), status: 200 }]);
    const host = new URL(refusedUrl).host;
    const reason = `Connection was refused by other side: ${host} (getting ${refusedUrl}). Check that the server is running and listens on that port.`;
    expect(result.lines).toContain(`Gave up retrying <GET ${refusedUrl}> (failed 3 times): ${reason}`);
    expect(result.lines).toContain(`Error downloading <GET ${refusedUrl}>: ${reason}`);
    expect(result.stats['retry/max_reached']).toBe(1);
    expect(result.stats['downloader/exception_type_count/ConnectionRefusedError']).toBe(3);
    expect(result.stats['downloader/exception_count']).toBe(3);
    expect(result.reason).toBe('finished');
  });

  it('DNS failure on a .invalid host: logged and counted; the healthy page is scraped', async () => {
    const result = await runCrawl(withHealthy('http://no-such-host.invalid/'), FAST);
    expect(result.items).toEqual([{ url: site.url('/ok'), status: 200 }]);
    expect(result.lines).toContain(`Error downloading <GET http://no-such-host.invalid/>: DNS lookup failed: address 'no-such-host.invalid' not found`);
    expect(result.stats['downloader/exception_type_count/DnsLookupError']).toBe(3);
  });

  it('timeout (DOWNLOAD_TIMEOUT): logged and counted; the healthy page is scraped', async () => {
    const started = Date.now();
    const result = await runCrawl(withHealthy(site.url('/slow')), { ...FAST, DOWNLOAD_TIMEOUT: 0.2, RETRY_ENABLED: false });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.items).toEqual([{ url: site.url('/ok'), status: 200 }]);
    expect(result.lines).toContain(`Error downloading <GET ${site.url('/slow')}>: Getting ${site.url('/slow')} took longer than 0.2 seconds.`);
    expect(result.stats['downloader/exception_type_count/TimeoutError']).toBe(1);
  });

  it('connection reset mid-body: logged and counted; the healthy page is scraped', async () => {
    const result = await runCrawl(withHealthy(site.url('/reset')), { ...FAST, RETRY_ENABLED: false });
    expect(result.items).toEqual([{ url: site.url('/ok'), status: 200 }]);
    expect(result.lines).toContain(
      `Error downloading <GET ${site.url('/reset')}>: Connection to the other side was lost in a non-clean fashion after 112 of 10000 bytes of the body of ${site.url('/reset')} ` +
        '(The server aborted pending request). Set DOWNLOAD_FAIL_ON_DATALOSS = false to process broken responses.',
    );
    expect(result.stats['downloader/exception_type_count/ConnectionLostError']).toBe(1);
  });

  it('invalid gzip: logged and counted; a valid gzip page and the healthy page are scraped', async () => {
    class Gz extends Spider {
      static override name = 'gz';
      override startUrls = [site.url('/bad-gzip'), site.url('/good-gzip'), site.url('/ok')];
      override parse(response: Response) {
        return { url: response.url, text: response.text };
      }
    }
    const result = await runCrawl(Gz, { ...FAST, RETRY_ENABLED: false });
    expect(result.items).toHaveLength(2);
    expect(result.items).toContainEqual({ url: site.url('/good-gzip'), text: '<p>zipped</p>' });
    expect(result.lines).toContain(
      `Error downloading <GET ${site.url('/bad-gzip')}>: Could not decode the gzip body of ${site.url('/bad-gzip')}: incorrect header check. ` +
        'The server sent a corrupt body; set COMPRESSION_ENABLED = false to receive it undecoded.',
    );
    expect(result.stats['downloader/exception_type_count/DecompressionError']).toBe(1);
  });

  it('500: retried RETRY_TIMES, then given up and ignored; the healthy page is scraped', async () => {
    site.reset();
    const result = await runCrawl(withHealthy(site.url('/500')), FAST);
    expect(result.items).toEqual([{ url: site.url('/ok'), status: 200 }]);
    expect(site.hits.filter((h) => h === '/500')).toHaveLength(3);
    expect(result.lines).toContain(`Gave up retrying <GET ${site.url('/500')}> (failed 3 times): 500 Internal Server Error`);
    expect(result.lines).toContain(`Ignoring response <500 ${site.url('/500')}>: HTTP status code is not handled or not allowed`);
    expect(result.stats['retry/count']).toBe(2);
    expect(result.stats['retry/max_reached']).toBe(1);
    expect(result.stats['downloader/response_status_count/500']).toBe(3);
  });

  it('redirect loop: discarded with a log line; the healthy page is scraped', async () => {
    const result = await runCrawl(withHealthy(site.url('/loop')), { REDIRECT_MAX_TIMES: 5 });
    expect(result.items).toEqual([{ url: site.url('/ok'), status: 200 }]);
    expect(result.lines).toContain(`Discarding <GET ${site.url('/loop')}>: max redirections reached`);
    expect(result.stats['downloader/response_status_count/302']).toBe(6);
  });

  it('a robots.txt that times out allows the site, with a log line and stats; other sites are not held up', async () => {
    class Robots extends Spider {
      static override name = 'robots';
      override startUrls = [slowRobots.url('/ok'), site.url('/ok')];
      override parse(response: Response) {
        return { url: response.url };
      }
    }
    slowRobots.reset();
    const started = Date.now();
    const result = await runCrawl(Robots, { ROBOTSTXT_OBEY: true, DOWNLOAD_TIMEOUT: 0.3, RETRY_ENABLED: false });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.items.map((i) => i['url']).sort()).toEqual([slowRobots.url('/ok'), site.url('/ok')].sort());
    expect(result.lines).toContain(`Error downloading <GET ${slowRobots.url('/robots.txt')}>: Getting ${slowRobots.url('/robots.txt')} took longer than 0.3 seconds.`);
    expect(result.stats['robotstxt/exception_count/TimeoutError']).toBe(1);
  });
});
