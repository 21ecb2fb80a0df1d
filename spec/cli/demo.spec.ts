/**
 * `seine demo` end to end: the real binary (bin/seine.js, running dist/) in
 * a child process, in a temporary folder; the demo site is the one the
 * command itself starts on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUOTES } from '../../src/demo/index.js';
import { ensureBuilt, logMessages, runSeine, startSeine, type RunningSeine } from './fixtures/run-seine.js';

const ITEMS = QUOTES.map((quote) => ({ text: `“${quote.text}”`, author: quote.author, tags: [...quote.tags] }));
const QUIET = ['-s', 'TELNETCONSOLE_ENABLED=false'];
const TIMEOUT = 60_000;

let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'seine-demo-'));
}, 120_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function jsonLines(text: string): unknown[] {
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);
}

/** A fresh folder under `dir` for one test, so that files from other tests do not count. */
function folder(name: string): string {
  const path = join(dir, name);
  rmSync(path, { recursive: true, force: true });
  return mkdtempSync(path);
}

/** Resolves with the first line standard output prints. */
function firstStdoutLine(run: RunningSeine): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    run.child.stdout!.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.split('\n')[0]!);
    });
    void run.done.then((result) => reject(new Error(`seine exited before printing a line:\n${result.stderr}`)));
  });
}

describe('seine demo', () => {
  it('crawls the bundled site with the quotes spider into quotes-demo.jsonl and says so', async () => {
    const cwd = folder('default');
    const result = await runSeine(['demo', ...QUIET], cwd);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('Scraped 100 items from the demo site into quotes-demo.jsonl\n');
    expect(jsonLines(readFileSync(join(cwd, 'quotes-demo.jsonl'), 'utf8'))).toEqual(ITEMS);
    const messages = logMessages(result.stderr);
    const url = /^Demo site listening on (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(messages.find((m) => m.startsWith('Demo site')) ?? '')?.[1];
    expect(url).toBeDefined();
    const crawled = messages.filter((m) => m.startsWith('Crawled ('));
    expect(crawled).toEqual([
      `Crawled (404) <GET ${url}robots.txt> (referer: None)`,
      `Crawled (200) <GET ${url}page/1/> (referer: None)`,
      ...Array.from({ length: 9 }, (_, i) => `Crawled (200) <GET ${url}page/${i + 2}/> (referer: ${url}page/${i + 1}/)`),
    ]);
    expect(messages).toContain('Spider opened');
    expect(messages).toContain(`Scraped from <200 ${url}page/10/>`);
    expect(messages).toContain('Spider closed (finished)');
    expect(result.stderr).toContain("'item_scraped_count': 100,\n");
  }, TIMEOUT);

  it('overwrites quotes-demo.jsonl when run again', async () => {
    const cwd = folder('again');
    expect(await runSeine(['demo', '--nolog'], cwd)).toMatchObject({ status: 0, stderr: '' });
    expect(await runSeine(['demo', '--nolog'], cwd)).toMatchObject({ status: 0, stderr: '' });
    expect(jsonLines(readFileSync(join(cwd, 'quotes-demo.jsonl'), 'utf8'))).toHaveLength(100);
  }, TIMEOUT);

  it('logs nothing with --nolog, and still says where the items are', async () => {
    const cwd = folder('nolog');
    const result = await runSeine(['demo', '--nolog'], cwd);
    expect(result).toMatchObject({ status: 0, stderr: '', stdout: 'Scraped 100 items from the demo site into quotes-demo.jsonl\n' });
  }, TIMEOUT);

  it('writes to the -O file instead, and to no other', async () => {
    const cwd = folder('big-o');
    const result = await runSeine(['demo', '--nolog', '-O', 'mine.jsonl'], cwd);
    expect(result.stdout).toBe('Scraped 100 items from the demo site into mine.jsonl\n');
    expect(jsonLines(readFileSync(join(cwd, 'mine.jsonl'), 'utf8'))).toEqual(ITEMS);
    expect(existsSync(join(cwd, 'quotes-demo.jsonl'))).toBe(false);
  }, TIMEOUT);

  it('appends with -o', async () => {
    const cwd = folder('small-o');
    await runSeine(['demo', '--nolog', '-o', 'all.jl'], cwd);
    const result = await runSeine(['demo', '--nolog', '-o', 'all.jl'], cwd);
    expect(result.stdout).toBe('Scraped 100 items from the demo site into all.jl\n');
    expect(jsonLines(readFileSync(join(cwd, 'all.jl'), 'utf8'))).toEqual([...ITEMS, ...ITEMS]);
  }, TIMEOUT);

  it('with -o - prints the items on standard output and the summary on standard error', async () => {
    const cwd = folder('stdout');
    const result = await runSeine(['demo', '--nolog', '-o', '-'], cwd);
    expect(result.status).toBe(0);
    expect(jsonLines(result.stdout)).toEqual(ITEMS);
    expect(result.stderr).toBe('Scraped 100 items from the demo site into standard output\n');
  }, TIMEOUT);

  it('refuses a --port that is not a port number, exit status 2', async () => {
    const result = await runSeine(['demo', '--nolog', '--port', 'abc'], folder('bad-port'));
    expect(result).toMatchObject({
      status: 2,
      stdout: '',
      stderr: "seine: --port must be a whole number from 0 to 65535, got 'abc' — run 'seine demo --help' for usage\n",
    });
  }, TIMEOUT);

  it('says which port is in use, exit status 1', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runSeine(['demo', '--nolog', '--port', String(port)], folder('busy'));
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(`seine: Cannot serve the demo site on 127.0.0.1:${port}: the port is in use (choose another with --port, or --port 0 for a free one)\n`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, TIMEOUT);
});

describe('seine demo --serve', () => {
  it('prints the URL of the site, which answers, until Ctrl-C (SIGINT) ends it with status 0', async () => {
    const run = startSeine(['demo', '--serve'], folder('serve'));
    const line = await firstStdoutLine(run);
    const url = /^Serving the demo quotes site at (http:\/\/127\.0\.0\.1:\d+\/) \(press Ctrl-C to stop\)$/.exec(line)?.[1];
    expect(url).toBeDefined();
    const page = await fetch(`${url!}page/2/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<span class="text" itemprop="text">“The only way to have a friend is to be one.”</span>');
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${line}\n`);
  }, TIMEOUT);

  it('serves on the --port given', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const run = startSeine(['demo', '--serve', '--port', String(port), '--nolog'], folder('serve-port'));
    expect(await firstStdoutLine(run)).toBe(`Serving the demo quotes site at http://127.0.0.1:${port}/ (press Ctrl-C to stop)`);
    expect((await fetch(`http://127.0.0.1:${port}/robots.txt`)).status).toBe(404);
    run.child.kill('SIGTERM');
    expect((await run.done).status).toBe(0);
  }, TIMEOUT);

  it('refuses -o/-O with --serve, exit status 2', async () => {
    const result = await runSeine(['demo', '--nolog', '--serve', '-O', 'x.jsonl'], folder('serve-feed'));
    expect(result).toMatchObject({
      status: 2,
      stderr: "seine: -o/-O name where the demo crawl writes its items; --serve only serves the site — run 'seine demo --help' for usage\n",
    });
  }, TIMEOUT);
});
