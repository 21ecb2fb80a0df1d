import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, logMessages, runSeine } from '../cli/fixtures/run-seine.js';
import { startSite, type TestSite } from '../helpers/site-server.js';

/** FilesPipeline through the built binary: `seine runspider` with ITEM_PIPELINES and -o, as a user runs it. */

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');
const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

let site: TestSite;
let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({
    '/': '<html><body><a class="doc" href="/files/a.pdf">a</a><a class="doc" href="/files/slow.txt">slow</a><a class="doc" href="/files/a.pdf">a again</a></body></html>',
    '/files/a.pdf': (_req, res) => res.writeHead(200, { 'Content-Type': 'application/pdf' }).end('%PDF a'),
    // Answers after 300 ms: the item must wait for it before the feed gets it.
    '/files/slow.txt': (_req, res) => setTimeout(() => res.writeHead(200).end('slow text'), 300),
  });
  dir = mkdtempSync(join(tmpdir(), 'seine-files-runspider-'));
}, 120_000);
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('seine runspider with FilesPipeline', () => {
  it('writes items to the feed with their files stored and recorded', async () => {
    writeFileSync(
      join(dir, 'docs.ts'),
      `import { Spider, type Response } from 'seine';
export class DocsSpider extends Spider {
  static name = 'docs';
  startUrls = ['${site.url('/')}'];
  *parse(response: Response) {
    for (const a of response.css('a.doc')) yield { title: a.css('::text').get(), file_urls: [response.urljoin(a.attrib['href'] ?? '')] };
  }
}
`,
    );
    const result = await runSeine(
      ['runspider', 'docs.ts', '-o', 'docs.json', '-s', 'ITEM_PIPELINES={"FilesPipeline": 1}', '-s', 'FILES_STORE=store', '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOGSTATS_INTERVAL=0'],
      dir,
    );
    expect(result.status).toBe(0);
    expect(logMessages(result.stderr).filter((line) => / (ERROR|WARNING): /.test(line))).toEqual([]);
    const items = JSON.parse(readFileSync(join(dir, 'docs.json'), 'utf8')) as Array<{ title: string; files: unknown[] }>;
    const a = site.url('/files/a.pdf');
    const slow = site.url('/files/slow.txt');
    const expected = {
      a: [{ url: a, path: `full/${sha1(a)}.pdf`, checksum: md5('%PDF a'), status: 'downloaded' }],
      slow: [{ url: slow, path: `full/${sha1(slow)}.txt`, checksum: md5('slow text'), status: 'downloaded' }],
      'a again': [{ url: a, path: `full/${sha1(a)}.pdf`, checksum: md5('%PDF a'), status: 'downloaded' }],
    } as Record<string, unknown>;
    expect(items).toHaveLength(3);
    for (const item of items) expect(item.files).toEqual(expected[item.title]);
    expect(readdirSync(join(dir, 'store', 'full')).sort()).toEqual([`${sha1(a)}.pdf`, `${sha1(slow)}.txt`].sort());
    expect(readFileSync(join(dir, 'store', 'full', `${sha1(slow)}.txt`), 'utf8')).toBe('slow text');
    // Stats dump: two files, each downloaded once although three items named them.
    expect(result.stderr).toMatch(/'file_count': 2,/);
    expect(site.hits.filter((hit) => hit === '/files/a.pdf')).toHaveLength(1);
  }, 60_000);
});
