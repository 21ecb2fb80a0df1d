/**
 * PROXY_LIST from `seine runspider -s …`: a crawl through tinyproxy with
 * Basic auth whose whole output (log lines, stats dump) never shows the
 * password, and PROXY_LIST with PROXY_TIERS stopping before the first
 * request with one line.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, runSeine } from '../cli/fixtures/run-seine.js';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { startTinyproxy, type TinyProxy } from '../helpers/tinyproxy.js';

const TIMEOUT = 90_000;
const PASSWORD = 'Cli-pw-1138';

const SPIDER = `import { Request, Spider, type Response } from 'seine';

export class PagesSpider extends Spider {
  static name = 'pages';
  declare base: string;
  async *start() {
    for (const path of ['/a', '/b']) yield new Request(this.base + path);
  }
  *parse(response: Response) {
    yield { path: new URL(response.url).pathname, body: response.text };
  }
}
`;

let site: TestSite;
let tiny: TinyProxy;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({ '/a': 'page a', '/b': 'page b' });
  tiny = await startTinyproxy({ user: 'carla', password: PASSWORD });
  dir = mkdtempSync(join(tmpdir(), 'seine-proxy-cli-'));
  writeFileSync(join(dir, 'pages.ts'), SPIDER);
}, 120_000);
afterAll(async () => {
  await Promise.all([site?.close(), tiny?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('seine runspider with PROXY_LIST', () => {
  it('crawls through an authenticating proxy and never prints its password', async () => {
    const run = await runSeine(['runspider', 'pages.ts', '-a', `base=${site.url('')}`, '-s', `PROXY_LIST=${tiny.url}`, '-s', 'TELNETCONSOLE_ENABLED=false', '-L', 'DEBUG', '-O', 'items.jsonl'], dir);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`'proxies/127.0.0.1:${tiny.port}/requests': 2,`);
    expect(site.hits.sort()).toEqual(['/a', '/b']);
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
    expect(tiny.output()).toMatch(/Request \(file descriptor \d+\): GET http:\/\/127\.0\.0\.1:\d+\/a /);
  }, TIMEOUT);

  it('refuses PROXY_LIST with PROXY_TIERS in one line, exit status 1', async () => {
    const run = await runSeine(['runspider', 'pages.ts', '-a', `base=${site.url('')}`, '-s', `PROXY_LIST=${tiny.url}`, '-s', 'PROXY_TIERS=[[],["http://127.0.0.1:1"]]'], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/seine: Settings PROXY_LIST and PROXY_TIERS are both set: use PROXY_LIST for one set of proxies in turn, or PROXY_TIERS for tiers per domain, not both\n$/);
    expect(run.stderr).not.toContain(PASSWORD);
  }, TIMEOUT);
});
