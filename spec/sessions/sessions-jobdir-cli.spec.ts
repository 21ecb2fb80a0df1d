/**
 * Sessions in JOBDIR, through the binary: a crawl that logged in within a
 * pinned session, closed early (CLOSESPIDER_PAGECOUNT), resumes with the
 * same session cookie and does not log in again. And SESSIONS_* settings
 * that cannot work: one line at start.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type Route, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, logMessages, runSeine } from '../cli/fixtures/run-seine.js';

const PRIVATE_PAGES = 8;
const TIMEOUT = 60_000;

const LOGIN_SPIDER = `import { Spider, Request, type Response } from 'seine';

export class LoginSpider extends Spider {
  static name = 'login';

  async *start() {
    yield new Request('http://127.0.0.1:8000/login', { meta: { session_id: 'me' }, callback: this.loggedIn });
  }

  *loggedIn(response: Response) {
    for (let n = 1; n <= ${PRIVATE_PAGES}; n++) yield new Request('http://127.0.0.1:8000/private/' + n, { meta: { session_id: 'me' } });
  }

  parse(response: Response) {
    return [{ url: response.url, session: response.meta.session_id }];
  }
}
`;

let site: TestSite;
let dir: string;
const logins: string[] = [];
const cookies: Array<string | undefined> = [];

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const routes: Record<string, Route> = {
    '/login': (_req, res) => {
      logins.push(`token-${logins.length + 1}`);
      res.writeHead(200, { 'Content-Type': 'text/html', 'Set-Cookie': `auth=${logins.at(-1)}; Path=/` }).end('<html><body>welcome</body></html>');
    },
  };
  for (let n = 1; n <= PRIVATE_PAGES; n++) {
    routes[`/private/${n}`] = (req, res) => {
      cookies.push(req.headers.cookie);
      if (req.headers.cookie !== 'auth=token-1') res.writeHead(403).end('log in first');
      else res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body>page ${n}</body></html>`);
    };
  }
  site = await startSite(routes);
  dir = mkdtempSync(join(tmpdir(), 'seine-sessions-'));
  writeFileSync(join(dir, 'login.ts'), LOGIN_SPIDER.replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, '')));
}, 120_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const urls = (file: string): string[] =>
  readFileSync(join(dir, file), 'utf8').split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as { url: string }).url);

const COMMON = ['-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'CONCURRENT_REQUESTS=1', '-s', 'SESSIONS_ENABLED=true', '-s', 'JOBDIR=crawls/run-1'];

describe('sessions in JOBDIR', () => {
  it('a resumed crawl sends the pinned session its cookie again, without logging in again', async () => {
    const first = await runSeine(['runspider', 'login.ts', ...COMMON, '-s', 'CLOSESPIDER_PAGECOUNT=4', '-O', 'part-1.jsonl'], dir);
    expect(first.status).toBe(0);
    expect(first.stderr).toContain("'finish_reason': 'closespider_pagecount'");
    const file = join(dir, 'crawls', 'run-1', 'sessions.json');
    // It holds cookies: the owner's alone.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { pool: { sessions: Array<{ id: string; pinned: boolean }> }; cookies: Record<string, unknown> };
    expect(saved.pool.sessions.map((session) => [session.id, session.pinned])).toEqual([['me', true]]);
    expect(JSON.stringify(saved.cookies['me'])).toContain('token-1');
    const part1 = urls('part-1.jsonl');
    expect(part1.length).toBeGreaterThan(0);
    expect(part1.length).toBeLessThan(PRIVATE_PAGES);

    const second = await runSeine(['runspider', 'login.ts', ...COMMON, '-O', 'part-2.jsonl'], dir);
    expect(second.status).toBe(0);
    expect(logMessages(second.stderr)).toContain(`Resumed 1 session(s) from ${join('crawls', 'run-1', 'sessions.json')}`);
    expect(second.stderr).toContain("'finish_reason': 'finished'");
    expect(logins).toEqual(['token-1']);
    expect(cookies.every((cookie) => cookie === 'auth=token-1')).toBe(true);
    const all = [...part1, ...urls('part-2.jsonl')].sort();
    expect(all).toEqual(Array.from({ length: PRIVATE_PAGES }, (_, i) => site.url(`/private/${i + 1}`)).sort());
  }, TIMEOUT);
});

describe('SESSIONS_* settings that cannot work', () => {
  it.each([
    [['-s', 'SESSIONS_POOL_SIZE=0'], 'Setting SESSIONS_POOL_SIZE must be an integer of at least 1, got 0'],
    [['-s', 'SESSIONS_MAX_USAGE=0'], 'Setting SESSIONS_MAX_USAGE must be an integer of at least 1, got 0'],
    [['-s', 'SESSIONS_BLOCKED_SELECTOR=div[class'], 'Setting SESSIONS_BLOCKED_SELECTOR is not a CSS selector seine can read: "div[class"'],
  ])('%j: one line at start, no stack', async (settings, message) => {
    const run = await runSeine(['runspider', 'login.ts', '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'SESSIONS_ENABLED=true', ...settings], dir);
    expect(run.status).not.toBe(0);
    const lines = run.stderr.split('\n').filter((line) => line.includes('SESSIONS_'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(message);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  }, TIMEOUT);
});
