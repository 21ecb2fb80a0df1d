/**
 * docs/security.md end to end, with the real binary: the files a crawl
 * leaves are the user's alone (under umask 000), the HTTP cache holds no
 * credential in clear, a seine.cfg cannot run a module outside its project,
 * and a spider argument cannot move a feed out of its folder.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linksPage, startSite, type TestSite } from '../helpers/site-server.js';
import { ROOT, ensureBuilt, logMessages, runSeine, type SeineRun } from './fixtures/run-seine.js';

const TIMEOUT = 60_000;

const SPIDER = `import { Spider, Request, type Response } from 'seine';

export class PagesSpider extends Spider {
  static name = 'pages';
  declare tag?: string;

  async *start() {
    yield new Request('http://127.0.0.1:8000/', { callback: this.parse, headers: { Authorization: 'Basic c2VjcmV0OnB3' } });
  }

  *parse(response: Response) {
    this.state.pages = ((this.state.pages as number | undefined) ?? 0) + 1;
    yield { url: response.url };
    for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parse);
  }
}
`;

let site: TestSite;
let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({
    '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html', 'Set-Cookie': 'session=c00kie-s3cret' }).end(linksPage(['/a'])),
    '/a': linksPage([]),
  });
  dir = mkdtempSync(join(tmpdir(), 'seine-security-'));
  writeFileSync(join(dir, 'pages.ts'), SPIDER.replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, '')));
}, 120_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `seine <args>` under `umask 000`, the most permissive: what seine creates must still be private. */
function runUnderUmask000(args: readonly string[], cwd: string): Promise<SeineRun> {
  const quoted = args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', `umask 000 && exec '${process.execPath}' '${join(ROOT, 'bin', 'seine.js')}' ${quoted}`], { cwd }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : (error as { code?: number }).code ?? 1, signal: null, stdout, stderr });
    });
  });
}

/** Every file and folder under `root` with its mode (`path: 0NNN`). */
function modesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (folder: string, prefix: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      const isDir = statSync(path).isDirectory();
      out.push(`${prefix}${name}${isDir ? '/' : ''}: 0${(statSync(path).mode & 0o777).toString(8)}`);
      if (isDir) walk(path, `${prefix}${name}/`);
    }
  };
  walk(root, '');
  return out;
}

describe('files a crawl leaves (umask 000)', () => {
  it('LOG_FILE (with the telnet password), the JOBDIR and the HTTP cache are 0600 files in 0700 folders; the cache holds no credential in clear', async () => {
    // LOG_FILE's folder must exist (seine does not make it); JOBDIR and HTTPCACHE_DIR are made.
    mkdirSync(join(dir, 'state'));
    const run = await runUnderUmask000(
      ['runspider', 'pages.ts', '-s', 'LOG_FILE=state/crawl.log', '-s', 'JOBDIR=state/job', '-s', 'HTTPCACHE_ENABLED=true', '-s', `HTTPCACHE_DIR=${join(dir, 'state', 'cache')}`, '-s', 'TELNETCONSOLE_PORT=[0]'],
      dir,
    );
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, 'state', 'crawl.log'), 'utf8')).toMatch(/Telnet Password: [0-9a-f]{16}/);
    const modes = modesUnder(join(dir, 'state'));
    expect(modes.filter((line) => line.includes('/: ')).every((line) => line.endsWith(': 0700'))).toBe(true);
    expect(modes.filter((line) => !line.includes('/: ')).every((line) => line.endsWith(': 0600'))).toBe(true);
    expect(modes).toEqual(expect.arrayContaining(['crawl.log: 0600', 'job/: 0700', 'job/requests.seen: 0600', 'job/requests.queue/: 0700', 'job/spider.state: 0600', 'cache/: 0700']));
    expect(modes.filter((line) => line.endsWith('request_headers: 0600'))).toHaveLength(2);
    const cached = modes.filter((line) => line.endsWith('request_headers: 0600')).map((line) => readFileSync(join(dir, 'state', line.slice(0, -': 0600'.length)), 'latin1')).join('\n');
    expect(cached).toContain('Authorization: <redacted>');
    expect(cached).toContain('Cookie: <redacted>');
    expect(cached).not.toContain('c2VjcmV0OnB3');
    expect(cached).not.toContain('c00kie-s3cret');
  }, TIMEOUT);
});

describe('paths', () => {
  it("a seine.cfg whose [settings] default leads outside the project runs nothing, even for `seine settings --get`, and says why", async () => {
    const project = join(dir, 'proj');
    mkdirSync(join(project, 'proj'), { recursive: true });
    mkdirSync(join(dir, 'outside'), { recursive: true });
    const marker = join(dir, 'outside', 'ran');
    writeFileSync(join(dir, 'outside', 'evil.ts'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport const BOT_NAME = 'evil';\n`);
    writeFileSync(join(project, 'seine.cfg'), '[settings]\ndefault = ../outside/evil\n');
    const run = await runSeine(['settings', '--get', 'BOT_NAME'], project);
    expect(existsSync(marker)).toBe(false);
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `${join(project, 'seine.cfg')} ([settings] default) names the module '../outside/evil', which leads outside the project folder ${project} (to ${join(dir, 'outside', 'evil.ts')}): ` +
        'module paths must stay inside the project',
    );
  }, TIMEOUT);

  it('-o out/%(tag)s.jsonl -a tag=../escaped writes nothing outside out/ and fails with an error naming the value', async () => {
    mkdirSync(join(dir, 'out'), { recursive: true });
    const run = await runSeine(['runspider', 'pages.ts', '-o', 'out/%(tag)s.jsonl', '-a', 'tag=../escaped', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(existsSync(join(dir, 'escaped.jsonl'))).toBe(false);
    expect(run.status).not.toBe(0);
    expect(logMessages(run.stderr).join('\n')).toContain("The feed path 'out/%(tag)s.jsonl' would take %(tag)s = '../escaped', which holds a path separator ('/' or '\\')");
    const ok = await runSeine(['runspider', 'pages.ts', '-o', 'out/%(tag)s.jsonl', '-a', 'tag=fiction', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(ok.status).toBe(0);
    expect(readFileSync(join(dir, 'out', 'fiction.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  }, TIMEOUT);
});
