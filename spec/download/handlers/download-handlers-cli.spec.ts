/**
 * DOWNLOAD_HANDLERS through `seine runspider`: a spider file's own handler
 * class for a new scheme, with `file: null`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, logMessages, runSeine } from '../../cli/fixtures/run-seine.js';

let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'seine-handlers-cli-'));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seine runspider with DOWNLOAD_HANDLERS', () => {
  it("crawls memo:// URLs through the spider's own handler, and refuses a file URL with one WARNING when file is null; the handler is closed at the end", async () => {
    const page = join(dir, 'page.html');
    writeFileSync(page, '<p>from a file</p>');
    const fileUrl = pathToFileURL(page).href;
    const spiderFile = join(dir, 'memo-spider.ts');
    writeFileSync(
      spiderFile,
      `import { Response, Spider, type DownloadHandler, type Request } from 'seine';

class MemoHandler implements DownloadHandler {
  async downloadRequest(request: Request): Promise<Response> {
    return new Response({ url: request.url, status: 200, headers: { 'Content-Type': 'text/html' }, body: '<p>' + request.url.slice(7) + '</p>' });
  }
  close(): void {
    console.error('memo handler closed');
  }
}

export class MemoSpider extends Spider {
  static override name = 'memo';
  static override customSettings = { DOWNLOAD_HANDLERS: { memo: MemoHandler, file: null } };
  override startUrls = ['memo://one', ${JSON.stringify(fileUrl)}, 'memo://two'];
  override parse(response: Response) {
    return { p: response.css('p::text').get() };
  }
}
`,
    );
    const feed = join(dir, 'items.jsonl');
    const run = await runSeine(['runspider', spiderFile, '-O', feed, '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(run.status).toBe(0);
    expect(readFileSync(feed, 'utf8').split('\n').filter(Boolean).sort()).toEqual(['{"p": "one"}', '{"p": "two"}']);
    const warnings = run.stderr.split('\n').filter((line) => / WARNING: /.test(line));
    expect(warnings.map((line) => logMessages(line)[0])).toEqual([`Dropped <GET ${fileUrl}>: Unsupported URL scheme 'file': DOWNLOAD_HANDLERS turns it off (file: null)`]);
    expect(run.stderr).toContain("'request_dropped/ignored': 1");
    expect(run.stderr).toContain('memo handler closed');
  }, 60_000);
});
