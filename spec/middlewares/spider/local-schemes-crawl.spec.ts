/**
 * Local schemes from remote pages in real crawls (docs/security.md, "Local
 * schemes"): a page served from 127.0.0.1 links to a file:// URL holding a
 * secret; the crawl must not read it. Start URLs and the shell's fetch of a
 * file:// URL still work.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Request } from '../../../src/http/request.js';
import { LogBus } from '../../../src/log/index.js';
import type { Response } from '../../../src/http/response.js';
import { Spider } from '../../../src/contracts/spider.js';
import { fetchOnce } from '../../../src/shell/fetch-once.js';
import { shellRequest } from '../../../src/shell/shell-request.js';
import { DefaultSpider } from '../../../src/shell/default-spider.js';
import { runCrawl, startSite, type TestSite } from '../../helpers/site-server.js';

const TIMEOUT = 30_000;

class LinksSpider extends Spider {
  static override name = 'links';
  declare urls?: string;

  override async *start() {
    for (const url of (this.urls ?? '').split(',')) yield new Request(url, { callback: this.parse });
  }

  override *parse(response: Response) {
    yield { url: response.url, text: response.text.slice(0, 200) };
    for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parse);
  }
}

let site: TestSite;
let dir: string;
let secretUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'seine-local-schemes-'));
  writeFileSync(join(dir, 'secret.txt'), 'root:x:0:0:SECRET-LINE');
  secretUrl = pathToFileURL(join(dir, 'secret.txt')).href;
  writeFileSync(join(dir, 'local.html'), `<html><body><a href="${secretUrl}">a local link</a></body></html>`);
  site = await startSite({
    '/hostile': `<html><body><a href="${secretUrl}">passwd</a><a href="data:text/plain,DATA-LINE">data</a><a href="/next">next</a></body></html>`,
    '/next': '<html><body>next</body></html>',
  });
});

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('file: and data: links on a remote page', () => {
  it('are not fetched: the secret is in no item, one WARNING per scheme, offsite/local_scheme counts them', async () => {
    const result = await runCrawl(LinksSpider, {}, { urls: site.url('/hostile') });
    expect(result.items.map((item) => item['url']).sort()).toEqual([site.url('/hostile'), site.url('/next')]);
    expect(JSON.stringify(result.items)).not.toContain('SECRET-LINE');
    // (the page's own text shows the data: link; no item comes from it: the URLs above)
    const warnings = result.logs.filter((event) => event.level === 'WARNING').map((event) => event.message);
    expect(warnings).toEqual([
      expect.stringMatching(new RegExp(`^Dropped a file: request from the remote page <${site.url('/hostile')}>: '${secretUrl}' \\(`)),
      expect.stringMatching(new RegExp(`^Dropped a data: request from the remote page <${site.url('/hostile')}>: 'data:text/plain,DATA-LINE' \\(`)),
    ]);
    expect(result.stats['offsite/local_scheme']).toBe(2);
    expect(result.stats['file_count']).toBeUndefined();
  }, TIMEOUT);

  it('are fetched with ALLOW_LOCAL_SCHEMES_FROM_REMOTE=true', async () => {
    const result = await runCrawl(LinksSpider, { ALLOW_LOCAL_SCHEMES_FROM_REMOTE: true }, { urls: site.url('/hostile') });
    expect(JSON.stringify(result.items)).toContain('SECRET-LINE');
    expect(JSON.stringify(result.items)).toContain('DATA-LINE');
    expect(result.stats['offsite/local_scheme']).toBeUndefined();
  }, TIMEOUT);
});

describe('local pages', () => {
  it('a file:// start URL is crawled, and so is the file:// link of a local page', async () => {
    const result = await runCrawl(LinksSpider, {}, { urls: pathToFileURL(join(dir, 'local.html')).href });
    expect(result.items.map((item) => item['url'])).toEqual([pathToFileURL(join(dir, 'local.html')).href, secretUrl]);
    expect(result.stats['offsite/local_scheme']).toBeUndefined();
  }, TIMEOUT);

  it("the shell's fetch() of a file:// URL reads it", async () => {
    const fetched = await fetchOnce(shellRequest(secretUrl), { spiderClass: DefaultSpider, settings: { TELNETCONSOLE_ENABLED: false }, logBus: new LogBus() });
    expect(fetched.response.text).toBe('root:x:0:0:SECRET-LINE');
  }, TIMEOUT);
});
