/**
 * WARC_ENABLED through the built `seine runspider`: the files a crawl
 * leaves, a crawl killed with SIGKILL mid-way (every finished record still
 * verifies, the index never points past the end), a JOBDIR crawl killed and
 * run again (it continues in a new file and leaves the old one as it was),
 * and a WARC_DIR that cannot be written (one line, before any download).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linksPage, slow, startSite, type Route, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, runSeine, startSeine } from '../cli/fixtures/run-seine.js';
import { readWithPython, readWithWarcio, warcFiles } from './fixtures/warc-reading.js';

const PAGES = 24;
const TIMEOUT = 60_000;

const SPIDER = `import { Spider, Request, type Response } from 'seine';

export class ArchiveSpider extends Spider {
  static name = 'archive';

  async *start() {
    yield new Request('http://127.0.0.1:8000/page/1/');
  }

  *parse(response: Response) {
    yield { url: response.url };
    for (const href of response.css('a::attr(href)').getall()) yield response.follow(href);
  }
}
`;

let site: TestSite;
let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const routes: Record<string, Route> = {};
  for (let n = 1; n <= PAGES; n++) {
    routes[`/page/${n}/`] = slow(n === 1 ? 0 : 150, linksPage([n + 1, n + 2].filter((m) => m <= PAGES).map((m) => `/page/${m}/`)));
  }
  site = await startSite(routes);
  dir = mkdtempSync(join(tmpdir(), 'seine-warc-binary-'));
  writeFileSync(join(dir, 'archive.ts'), SPIDER.replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, '')));
}, 120_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const COMMON = ['-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'ROBOTSTXT_OBEY=false', '-s', 'CONCURRENT_REQUESTS=4', '-s', 'WARC_ENABLED=true'];
const pageUrls = (): string[] => Array.from({ length: PAGES }, (_v, i) => site.url(`/page/${i + 1}/`));

function indexLines(warcDir: string): number {
  return warcFiles(warcDir).reduce((sum, name) => {
    const index = join(warcDir, name.replace(/\.warc\.gz$/, '.cdxj'));
    return sum + (existsSync(index) ? readFileSync(index, 'utf8').split('\n').filter((line) => line !== '').length : 0);
  }, 0);
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('seine runspider -s WARC_ENABLED=true', () => {
  it('writes a .warc.gz and its .cdxj with every page, logged and counted', async () => {
    const run = await runSeine(['runspider', 'archive.ts', ...COMMON, '-s', 'WARC_DIR=warc-full'], dir);
    expect(run.status).toBe(0);
    const files = readWithPython(join(dir, 'warc-full'));
    expect(files).toHaveLength(1);
    const [file] = files;
    expect(file!.errors).toEqual([]);
    expect(file!.records.filter((r) => r.type === 'response').map((r) => r.uri).sort()).toEqual(pageUrls().sort());
    expect(file!.index.map((line) => line.url).sort()).toEqual(pageUrls().sort());
    expect(existsSync(join(dir, 'warc-full', file!.file.replace(/\.warc\.gz$/, '.cdxj')))).toBe(true);
    expect(run.stderr).toContain(`[seine.warc] INFO: Writing WARC records to warc-full/${file!.file}`);
    expect(run.stderr).toMatch(/'warc\/files': 1[,}]/);
    // The warcinfo, then a response and a request per page.
    expect(run.stderr).toMatch(new RegExp(`'warc/records': ${1 + 2 * PAGES}[,}]`));
  }, TIMEOUT);

  it('killed with SIGKILL mid-crawl, leaves files whose every finished record verifies', async () => {
    const warcDir = join(dir, 'warc-killed');
    const run = startSeine(['runspider', 'archive.ts', ...COMMON, '-s', 'WARC_DIR=warc-killed'], dir);
    await until(() => existsSync(warcDir) && indexLines(warcDir) >= 5);
    run.child.kill('SIGKILL');
    const killed = await run.done;
    expect(killed.signal).toBe('SIGKILL');
    const files = readWithPython(warcDir);
    expect(files).toHaveLength(1);
    const [file] = files;
    expect(file!.errors).toEqual([]);
    const responses = file!.records.filter((r) => r.type === 'response');
    expect(responses.length).toBeGreaterThanOrEqual(5);
    expect(responses.length).toBeLessThan(PAGES);
    // Every index line points at a record on disk (read-warc.py checks each offset); none is missing.
    expect(file!.index.length).toBeGreaterThanOrEqual(responses.length - 1);
    // Had the kill landed inside a record, the file would end in a cut gzip member: every record before it still reads.
    const whole = readFileSync(join(warcDir, file!.file));
    const last = file!.records.at(-1)!;
    const cut = join(dir, 'cut.warc.gz');
    writeFileSync(cut, whole.subarray(0, last.offset + Math.floor(last.length / 2)));
    expect((await readWithWarcio(cut)).map((r) => r.type)).toEqual(file!.records.slice(0, -1).map((r) => r.type));
  }, TIMEOUT);

  it('a JOBDIR crawl killed and run again continues in a new file and leaves the old one as it was', async () => {
    const warcDir = join(dir, 'warc-job');
    const args = ['runspider', 'archive.ts', ...COMMON, '-s', 'WARC_DIR=warc-job', '-s', 'JOBDIR=job'];
    const first = startSeine(args, dir);
    await until(() => existsSync(warcDir) && indexLines(warcDir) >= 5);
    first.child.kill('SIGKILL');
    await first.done;
    const [before] = warcFiles(warcDir);
    const sizeBefore = statSync(join(warcDir, before!)).size;
    const second = await runSeine(args, dir);
    expect(second.status).toBe(0);
    const names = warcFiles(warcDir);
    expect(names).toHaveLength(2);
    expect(names[0]).toBe(before);
    expect(names[1]).not.toBe(before);
    expect(statSync(join(warcDir, before!)).size).toBe(sizeBefore);
    const files = readWithPython(warcDir);
    for (const file of files) expect(file.errors).toEqual([]);
    expect(files[1]!.truncated).toBe(false);
    expect(files[1]!.records[0]!.type).toBe('warcinfo');
    const archived = new Set(files.flatMap((file) => file.records.filter((r) => r.type === 'response').map((r) => r.uri)));
    expect([...archived].sort()).toEqual(pageUrls().sort());
  }, TIMEOUT);

  it('stops at the start with one line when WARC_DIR cannot be written', async () => {
    writeFileSync(join(dir, 'occupied'), 'a file, not a folder');
    site.reset();
    const run = await runSeine(['runspider', 'archive.ts', ...COMMON, '-s', 'WARC_DIR=occupied/warc'], dir);
    expect(run.status).toBe(1);
    // One error line (after the stats dump every crawl that ends logs).
    expect(run.stderr.split('\n').filter((line) => line.startsWith('seine:'))).toEqual([
      "seine: Cannot open the crawl: WarcWriter.openSpider failed: Cannot write WARC files in WARC_DIR 'occupied/warc': ENOTDIR: not a directory, mkdir 'occupied/warc' (set -s WARC_DIR=<a writable folder>)",
    ]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(site.hits).toEqual([]);
  }, TIMEOUT);
});
