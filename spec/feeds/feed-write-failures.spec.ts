/**
 * Feeds whose target stops taking bytes, through the real binary: standard
 * output read slowly (the crawl waits without spinning a core), standard
 * output whose reader leaves (`-o - | head`: quiet, exit 0), a file that
 * fills up mid-crawl (`ulimit -f`: Node ignores SIGXFSZ, so writes past the
 * limit fail with EFBIG, as on a full disk) and /dev/full (ENOSPC), and a
 * LOG_FILE that cannot be written.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ROOT, ensureBuilt, logMessages, startSeine, type SeineRun } from '../cli/fixtures/run-seine.js';

const QUIET = ['-s', 'TELNETCONSOLE_ENABLED=false', '-L', 'INFO'];
const TIMEOUT = 60_000;
const SEINE = join(ROOT, 'bin', 'seine.js');

/** `pages` pages of `perPage` items each (`{"i": n, "text": "xxx…"}`, 120 bytes as JSON), page 1 logging `parsing`. */
function spiderSource(base: string, pages: number, perPage: number): string {
  return `import { Spider, type Response } from 'seine';

export class ManySpider extends Spider {
  static name = 'many';
  startUrls = ['${base}/page/1'];
  *parse(response: Response) {
    const page = Number(response.url.split('/').pop());
    if (page === 1) this.logger.info('parsing');
    for (let i = 0; i < ${perPage}; i++) yield { i: (page - 1) * ${perPage} + i, text: 'x'.repeat(100) };
    if (page < ${pages}) yield response.follow('/page/' + (page + 1));
  }
}
`;
}

let site: TestSite;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const routes: Parameters<typeof startSite>[0] = {};
  for (let n = 1; n <= 20; n++) {
    // 50 ms a page: a crawl of 20 pages outlasts `head`, which leaves after the first lines.
    routes[`/page/${n}`] = (_req, res) => {
      setTimeout(() => res.end('<html><body>page</body></html>'), 50).unref();
    };
  }
  site = await startSite(routes);
  dir = mkdtempSync(join(tmpdir(), 'seine-feed-failures-'));
}, 120_000);
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

function spider(name: string, pages: number, perPage: number): string {
  writeFileSync(join(dir, name), spiderSource(site.url('').replace(/\/$/, ''), pages, perPage));
  return name;
}

/** Runs a shell command line in `dir`; `$SEINE` is `node bin/seine.js`. */
function shell(script: string): Promise<SeineRun> {
  const child = spawn('bash', ['-c', script], { cwd: dir, env: { ...process.env, SEINE: `${process.execPath} ${SEINE}` } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr })));
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat (fields 14 and 15, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const errors = (stderr: string): string[] => logMessages(stderr).filter((_, i) => / ERROR: /.test(stderr.split('\n')[i] ?? ''));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('a feed whose target cannot keep up or stops taking bytes', () => {
  it('waits for a slow reader of standard output without spinning, and every item arrives', async () => {
    const run = startSeine(['runspider', spider('slow-reader.ts', 1, 20_000), '-o', '-', ...QUIET], dir);
    // The test reads nothing yet: the pipe fills (64 KiB) while the spider yields 2.4 MB of items.
    run.child.stdout!.pause();
    await run.waitForLog(/INFO: parsing/);
    await sleep(500);
    const before = cpuSeconds(run.child.pid!);
    await sleep(3000);
    const spent = cpuSeconds(run.child.pid!) - before;
    run.child.stdout!.resume();
    const result = await run.done;
    // Measured: 0.00–0.02 s of CPU in these 3 s; retrying EAGAIN in a loop spent all 3.
    expect(spent).toBeLessThan(0.5);
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(20_000);
    expect(JSON.parse(lines[19_999]!)).toEqual({ i: 19_999, text: 'x'.repeat(100) });
    expect(errors(result.stderr)).toEqual([]);
  }, TIMEOUT);

  it('stops quietly when the reader of standard output leaves (-o - | head), and the other feeds go on', async () => {
    const file = spider('head.ts', 20, 500);
    const result = await shell(`$SEINE runspider ${file} -o - -O all.json ${QUIET.join(' ')} | head -2; echo "seine exited $\{PIPESTATUS[0]}" >&2`);
    expect(result.stdout.split('\n').map((line) => JSON.parse(line || 'null'))).toEqual([
      { i: 0, text: 'x'.repeat(100) },
      { i: 1, text: 'x'.repeat(100) },
      null,
    ]);
    const messages = logMessages(result.stderr);
    expect(messages).toContain('Standard output was closed by its reader: stopped writing the jsonlines feed -; the other feeds go on');
    expect(messages).toContain('Closing spider (finished)');
    expect(messages).toContain('Stored json feed (10000 items) in: all.json');
    expect(result.stderr.endsWith('\nseine exited 0\n')).toBe(true);
    expect(errors(result.stderr)).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8'))).toHaveLength(10_000);
  }, TIMEOUT);

  it('closes the crawl (stdout_closed) when standard output was its only feed, exit status 0', async () => {
    const file = spider('head-only.ts', 20, 500);
    const result = await shell(`$SEINE runspider ${file} -o - ${QUIET.join(' ')} | head -1 >/dev/null; echo "seine exited $\{PIPESTATUS[0]}" >&2`);
    const messages = logMessages(result.stderr);
    expect(messages).toContain('Standard output was closed by its reader: stopped writing the jsonlines feed -; no feed is left, so the crawl stops');
    expect(messages).toContain('Closing spider (stdout_closed)');
    expect(result.stderr.endsWith('\nseine exited 0\n')).toBe(true);
    expect(errors(result.stderr)).toEqual([]);
  }, TIMEOUT);

  it('stops a JSON feed on a full disk with one ERROR, keeps its items as a valid array, stops the crawl and exits 1', async () => {
    const file = spider('full-json.ts', 4, 500);
    // 64 KiB: about 530 items fit; a page's items are written 8 KiB at a time, and the write that fails is cut back whole.
    const result = await shell(`ulimit -f 64; exec $SEINE runspider ${file} -O items.json ${QUIET.join(' ')}`);
    const items = JSON.parse(readFileSync(join(dir, 'items.json'), 'utf8')) as Array<{ i: number }>;
    expect(items.length).toBeGreaterThan(450);
    expect(items.length).toBeLessThan(2000);
    expect(items.map((item) => item.i)).toEqual([...items.keys()]);
    expect(errors(result.stderr)).toEqual([
      `Feed items.json could not be written (EFBIG: file too large): stopped writing it; it keeps the ${items.length} items written before; no feed is left, so the crawl stops`,
    ]);
    expect(logMessages(result.stderr)).toContain('Closing spider (feed_error)');
    expect(result.stderr).toContain("'finish_reason': 'feed_error'");
    expect(result.stderr).toContain("'feedexport/failed_count/FileFeedStorage': 1");
    expect(result.status).toBe(1);
  }, TIMEOUT);

  it('leaves an overwritten JSON file as it was when not even its opening bracket can be written', async () => {
    const file = spider('full-at-once.ts', 1, 10);
    writeFileSync(join(dir, 'keep.json'), '["old"]');
    // A first run under no limit fills the TypeScript loader's cache, which cannot be written under `ulimit -f 0`.
    expect((await shell(`$SEINE runspider ${file} --nolog -O warm.jsonl`)).status).toBe(0);
    // FEED_STORE_EMPTY (the default) writes `[` when the feed opens: that fails before anything is crawled.
    const atOpen = await shell(`ulimit -f 0; exec $SEINE runspider ${file} -O keep.json ${QUIET.join(' ')}`);
    expect(atOpen.stderr).toContain(
      "\nseine: Cannot write the feed 'keep.json': EFBIG: file too large (check that the folder exists and is writable, or choose another -o/-O path)\n",
    );
    expect(atOpen.status).toBe(1);
    // Without it, `[` comes with the first item, mid-crawl.
    const midCrawl = await shell(`ulimit -f 0; exec $SEINE runspider ${file} -O keep.json -s FEED_STORE_EMPTY=false ${QUIET.join(' ')}`);
    expect(errors(midCrawl.stderr)).toEqual([
      'Feed keep.json could not be written (EFBIG: file too large): stopped writing it; nothing was written, and the file is as it was before the crawl; no feed is left, so the crawl stops',
    ]);
    expect(midCrawl.status).toBe(1);
    expect(readFileSync(join(dir, 'keep.json'), 'utf8')).toBe('["old"]');
    expect(readdirSync(dir).filter((name) => name.endsWith('.seine-tmp'))).toEqual([]);
  }, TIMEOUT);

  it('keeps a JSON Lines feed to its last whole line on a full disk while standard output gets every item', async () => {
    const file = spider('full-jsonl.ts', 4, 500);
    const result = await shell(`ulimit -f 64; exec $SEINE runspider ${file} -O items.jsonl -o - ${QUIET.join(' ')}`);
    const text = readFileSync(join(dir, 'items.jsonl'), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as { i: number });
    expect(errors(result.stderr)).toEqual([
      `Feed items.jsonl could not be written (EFBIG: file too large): stopped writing it; it keeps the ${lines.length} items written before; the other feeds go on`,
    ]);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(2000);
    expect(logMessages(result.stderr)).toContain('Closing spider (finished)');
    expect(result.status).toBe(1);
  }, TIMEOUT);

  it('says /dev/full once (ENOSPC), not once per item', async () => {
    const file = spider('dev-full.ts', 1, 3000);
    const result = await shell(`exec $SEINE runspider ${file} -O /dev/full:jsonl ${QUIET.join(' ')}`);
    expect(errors(result.stderr)).toEqual([
      'Feed /dev/full could not be written (ENOSPC: no space left on device): stopped writing it; nothing was written to it; no feed is left, so the crawl stops',
    ]);
    expect(result.status).toBe(1);
  }, TIMEOUT);
});

describe('a LOG_FILE that cannot be written', () => {
  it('says so once on stderr and the crawl goes on, its feed complete, exit 0', async () => {
    const file = spider('log-full.ts', 2, 50);
    const result = await shell(`exec $SEINE runspider ${file} -O items.jsonl --logfile /dev/full -s TELNETCONSOLE_ENABLED=false`);
    expect(result.stderr).toBe(
      "seine: Cannot write the log file '/dev/full' (ENOSPC: no space left on device): the crawl goes on without its log; its ERROR and CRITICAL lines follow here\n",
    );
    expect(readFileSync(join(dir, 'items.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(100);
    expect(result.status).toBe(0);
  }, TIMEOUT);

  it('still shows a failing feed ERROR line on stderr after the log file failed', async () => {
    const file = spider('both-full.ts', 1, 10);
    const result = await shell(`exec $SEINE runspider ${file} -O /dev/full:jsonl --logfile /dev/full -s TELNETCONSOLE_ENABLED=false`);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe("seine: Cannot write the log file '/dev/full' (ENOSPC: no space left on device): the crawl goes on without its log; its ERROR and CRITICAL lines follow here");
    expect(lines.slice(1).map((line) => logMessages(line)[0])).toEqual([
      'Feed /dev/full could not be written (ENOSPC: no space left on device): stopped writing it; nothing was written to it; no feed is left, so the crawl stops',
    ]);
    expect(result.status).toBe(1);
  }, TIMEOUT);
});
