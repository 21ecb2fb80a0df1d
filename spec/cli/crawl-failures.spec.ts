/**
 * What a user sees when a crawl's components misbehave, through the real
 * binary (`seine runspider` in a child process) against a real server on
 * 127.0.0.1: each case is one of the failures measured before the engine's
 * control core was rebuilt, and what it does now.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, logMessages, runSeine } from './fixtures/run-seine.js';

let site: TestSite;
let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({
    '/': '<html><body><p class="v">home</p><a href="/about">about</a></body></html>',
    '/about': '<html><body><p class="v">about</p></body></html>',
    '/robots.txt': (_req, res) => res.writeHead(301, { Location: '/real-robots.txt' }).end(),
    '/real-robots.txt': 'User-agent: *\nDisallow: /private\n',
    '/private': '<html><body><p class="v">private</p></body></html>',
  });
  dir = mkdtempSync(join(tmpdir(), 'seine-crawl-failures-'));
}, 120_000);
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

function spiderFile(name: string, body: string): string {
  const file = `${name}.ts`;
  writeFileSync(join(dir, file), `import { CloseSpider, Request, Spider, type Response } from 'seine';\n${body}\n`);
  return file;
}

const QUIET = ['-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOGSTATS_INTERVAL=0'];

describe('a crawl whose components misbehave', () => {
  it("a pipeline whose closeSpider throws: the -O feed is complete, the stats are dumped, `Spider closed` is logged, exit 0", async () => {
    const file = spiderFile('close-throws', `
class Exploding {
  processItem(item: Record<string, unknown>) { return item; }
  closeSpider() { throw new Error('database went away'); }
}
export class CloseThrows extends Spider {
  static name = 'close-throws';
  static customSettings = { ITEM_PIPELINES: new Map([[Exploding, 300]]) };
  startUrls = ['${site.url('/')}'];
  *parse(response: Response) {
    yield { v: response.css('p.v::text').get() };
    yield* response.followAll(response.css('a'), this.parse);
  }
}`);
    const result = await runSeine(['runspider', file, '-O', 'close-throws.json', ...QUIET], dir);
    const lines = logMessages(result.stderr);
    expect(result.status).toBe(0);
    expect(lines).toContain('Exploding.closeSpider failed while closing the spider: database went away');
    expect(result.stderr).not.toContain('    at ');
    expect(JSON.parse(readFileSync(join(dir, 'close-throws.json'), 'utf8'))).toEqual([{ v: 'home' }, { v: 'about' }]);
    expect(readdirSync(dir).filter((f) => f.includes('seine-tmp'))).toEqual([]);
    expect(lines).toContain('Dumping seine stats:');
    expect(lines).toContain('Spider closed (finished)');
  });

  it('an openSpider that throws: one line naming the component, exit 1, nothing crawled, what opened is closed', async () => {
    const file = spiderFile('open-throws', `
class Db {
  processItem(item: Record<string, unknown>) { return item; }
  openSpider() { throw new Error('cannot reach 127.0.0.1:1'); }
}
export class OpenThrows extends Spider {
  static name = 'open-throws';
  static customSettings = { ITEM_PIPELINES: new Map([[Db, 300]]) };
  startUrls = ['${site.url('/')}'];
  parse() {}
}`);
    site.reset();
    const result = await runSeine(['runspider', file, ...QUIET], dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('seine: Cannot open the crawl: Db.openSpider failed: cannot reach 127.0.0.1:1\n');
    expect(result.stderr).not.toContain('    at ');
    expect(logMessages(result.stderr)).toContain('Spider closed (open_failed)');
    expect(site.hits).toEqual([]);
  });

  it("CloseSpider('enough') from a callback closes with reason enough, without an error", async () => {
    const file = spiderFile('enough', `
export class Enough extends Spider {
  static name = 'enough';
  startUrls = ['${site.url('/')}'];
  *parse(response: Response) {
    yield { v: response.css('p.v::text').get() };
    yield* response.followAll(response.css('a'), this.parse);
    throw new CloseSpider('enough');
  }
}`);
    const result = await runSeine(['runspider', file, ...QUIET], dir);
    const lines = logMessages(result.stderr);
    expect(result.status).toBe(0);
    expect(lines).toContain('Closing spider (enough)');
    expect(lines).toContain('Spider closed (enough)');
    expect(result.stderr).not.toContain('ERROR');
    expect(result.stderr).not.toContain('spider_exceptions');
  });

  it.each([
    ['first', (bad: string, good: string) => [bad, good]],
    ['second', (bad: string, good: string) => [good, bad]],
  ])('a start URL without a scheme (%s in the list) is skipped with one line; the other is crawled, nothing hangs, the feed has its item', async (_where, order) => {
    const port = new URL(site.url('/')).port;
    const urls = order(`127.0.0.1:${port}/`, site.url('/about'));
    const file = spiderFile(`no-scheme-${_where}`, `
export class NoScheme extends Spider {
  static name = 'no-scheme';
  startUrls = ${JSON.stringify(urls)};
  parse(response: Response) { return { v: response.css('p.v::text').get() }; }
}`);
    const started = Date.now();
    const result = await runSeine(['runspider', file, '-O', `no-scheme-${_where}.jsonl`, ...QUIET], dir);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.status).toBe(0);
    const lines = logMessages(result.stderr);
    expect(lines.filter((line) => line.startsWith('Skipping start URL'))).toEqual([
      `Skipping start URL '127.0.0.1:${port}/': Missing scheme in request url: 127.0.0.1:${port}/ (did you mean 'http://127.0.0.1:${port}/'?)`,
    ]);
    expect(readFileSync(join(dir, `no-scheme-${_where}.jsonl`), 'utf8')).toBe('{"v": "about"}\n');
    expect(lines).toContain('Spider closed (finished)');
  });

  it('robots.txt that answers a redirect: the target is fetched and obeyed', async () => {
    const file = spiderFile('robots-redirect', `
export class RobotsRedirect extends Spider {
  static name = 'robots-redirect';
  startUrls = ['${site.url('/about')}', '${site.url('/private')}'];
  parse(response: Response) { return { v: response.css('p.v::text').get() }; }
}`);
    site.reset();
    const result = await runSeine(['runspider', file, '-O', 'robots.jsonl', '-s', 'ROBOTSTXT_OBEY=true', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(site.hits).toContain('/real-robots.txt');
    expect(site.hits).not.toContain('/private');
    expect(readFileSync(join(dir, 'robots.jsonl'), 'utf8')).toBe('{"v": "about"}\n');
    expect(result.stderr).not.toContain('was redirected');
    expect(logMessages(result.stderr)).toContain(`Forbidden by robots.txt: <GET ${site.url('/private')}>`);
  });

  it('-O items.json in a run that scrapes nothing writes [] (also over a valid earlier file)', async () => {
    const file = spiderFile('nothing', `
export class Nothing extends Spider {
  static name = 'nothing';
  startUrls = ['${site.url('/about')}'];
  parse() {}
}`);
    writeFileSync(join(dir, 'nothing.json'), '[{"old": 1}]');
    const result = await runSeine(['runspider', file, '-O', 'nothing.json', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'nothing.json'), 'utf8'))).toEqual([]);
    expect(existsSync(join(dir, 'nothing.json'))).toBe(true);
  });
});
