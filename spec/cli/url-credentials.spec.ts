/**
 * docs/security.md: a password in a URL is written nowhere (log lines,
 * the stats dump, error messages) as `user:***@`, while the request keeps it
 * and the server is authenticated.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linksPage, startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, runSeine } from './fixtures/run-seine.js';

const SPIDER = `import { Spider, type Response } from 'seine';

export class AuthSpider extends Spider {
  static name = 'auth';
  startUrls = ['http://user:secret@127.0.0.1:8000/', 'http://user:secret@127.0.0.1:1/refused'];

  *parse(response: Response) {
    yield { path: new URL(response.url).pathname };
    for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parse);
  }
}
`;

const AUTHORIZATION = `Basic ${Buffer.from('user:secret').toString('base64')}`;
let site: TestSite;
let dir: string;
const authorizations: string[] = [];

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const guarded = (body: string) => (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    authorizations.push(req.headers.authorization ?? '');
    if (req.headers.authorization !== AUTHORIZATION) res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="x"' }).end('no');
    else res.writeHead(200, { 'Content-Type': 'text/html' }).end(body);
  };
  site = await startSite({
    '/': guarded(linksPage(['/next', '/missing', '/redirect'])),
    '/next': guarded(linksPage([])),
    '/redirect': (_req, res) => res.writeHead(302, { Location: '/next' }).end(),
  });
  dir = mkdtempSync(join(tmpdir(), 'seine-credentials-'));
  writeFileSync(join(dir, 'auth.ts'), SPIDER.replace('127.0.0.1:8000', new URL(site.url('/')).host));
}, 120_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a URL with a password', () => {
  it('authenticates the download but is written user:***@ in the log, the stats dump and error messages', async () => {
    const run = await runSeine(['runspider', 'auth.ts', '-O', 'items.jsonl', '-s', 'TELNETCONSOLE_ENABLED=False', '-s', 'ROBOTSTXT_OBEY=False'], dir);
    const host = new URL(site.url('/')).host;
    expect(authorizations.length).toBeGreaterThanOrEqual(2);
    expect(authorizations.every((value) => value === AUTHORIZATION)).toBe(true);
    expect(run.stderr).toContain(`Crawled (200) <GET http://user:***@${host}/> (referer: None)`);
    expect(run.stderr).toContain(`Scraped from <200 http://user:***@${host}/next>`);
    expect(run.stderr).toContain(`Redirecting (302) to <GET http://user:***@${host}/next> from <GET http://user:***@${host}/redirect>`);
    expect(run.stderr).toContain('Error downloading <GET http://user:***@127.0.0.1:1/refused>');
    expect(run.stderr).toContain("'downloader/request_count'");
    expect(run.stderr + run.stdout).not.toContain('secret');
  }, 60_000);
});
