/**
 * A page rendered in Debian's Chromium (meta.playwright) with WARC_ENABLED:
 * the archive holds the page's network response (its HTML before scripts
 * ran) with the request the browser sent, and the rendered DOM as a
 * `resource` record of its own URI, `urn:dom:<url>`, concurrent to that
 * response; a plain download of the same site is archived beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Request, Spider, type Response } from '../../src/index.js';
import { JS_QUOTES, startJsSite, type JsSite } from '../helpers/js-site.js';
import { runCrawl } from '../helpers/site-server.js';
import { header, indexWithWarcio, readWithPython } from './fixtures/warc-reading.js';

class RenderedSpider extends Spider {
  static override name = 'rendered';
  declare base: string;
  override async *start() {
    yield new Request(`${this.base}/quotes/1`, { meta: { playwright: true } });
    yield new Request(`${this.base}/static/`);
  }
  override *parse(response: Response) {
    yield { url: response.url, quotes: response.css('div.quote span.text::text').getall() };
  }
}

let site: JsSite;
let root: string;
beforeAll(async () => {
  site = await startJsSite();
  root = mkdtempSync(join(tmpdir(), 'seine-warc-browser-'));
});
afterAll(async () => {
  await site.close();
  rmSync(root, { recursive: true, force: true });
});

describe('WARC_ENABLED with rendered pages', () => {
  it('records the network response and the rendered DOM as its own record', async () => {
    const dir = join(root, 'warc');
    const result = await runCrawl(RenderedSpider, {
      WARC_ENABLED: true,
      WARC_DIR: dir,
      ROBOTSTXT_OBEY: false,
      PLAYWRIGHT_ABORT_REQUEST: null,
    }, { base: site.url('') });
    const rendered = result.items.find((item) => item['url'] === site.url('/quotes/1'))!;
    expect(rendered['quotes']).toEqual(JS_QUOTES[1]!.map(([text]) => text));
    const [file] = readWithPython(dir);
    expect(file!.errors).toEqual([]);
    const url = site.url('/quotes/1');
    const response = file!.records.find((r) => r.type === 'response' && r.uri === url)!;
    // The network response: the HTML the server sent, before its script wrote the quotes.
    expect(response.http!.firstLine).toBe('HTTP/1.1 200 OK');
    expect(response.http!.body).toContain('<div id="quotes"></div>');
    expect(response.http!.body).not.toContain('<div class="quote">');
    expect(response.ip).toBe('127.0.0.1');
    const request = file!.records.find((r) => r.type === 'request' && r.uri === url)!;
    expect(request.concurrentTo).toBe(response.id);
    expect(request.http!.firstLine).toBe('GET /quotes/1 HTTP/1.1');
    expect(header(request.http!.headers, 'host')).toBe(new URL(url).host);
    const dom = file!.records.find((r) => r.type === 'resource')!;
    expect(dom.uri).toBe(`urn:dom:${url}`);
    expect(dom.contentType).toBe('text/html; charset=utf-8');
    expect(dom.concurrentTo).toBe(response.id);
    expect(dom.body).toContain(`<div class="quote"><span class="text">${JS_QUOTES[1]![0]![0]}</span>`);
    expect(file!.index.map((line) => line.url).sort()).toEqual([site.url('/static/'), url, `urn:dom:${url}`].sort());
    expect(readFileSync(join(dir, file!.file.replace(/\.warc\.gz$/, '.cdxj')), 'utf8')).toBe(indexWithWarcio(join(dir, file!.file)));
    // The plain download beside it.
    expect(file!.records.filter((r) => r.type === 'response').map((r) => r.uri).sort()).toEqual([site.url('/static/'), url].sort());
  }, 60_000);
});
