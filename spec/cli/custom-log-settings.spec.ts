import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, runSeine } from './fixtures/run-seine.js';
import { quotesSite, startSite, type TestSite } from '../helpers/site-server.js';

/** A spider's customSettings set the log as Scrapy's custom_settings do: the CLI's log follows them once the spider is loaded. */

let site: TestSite;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite(quotesSite(1));
  dir = mkdtempSync(join(tmpdir(), 'seine-custom-log-'));
}, 60_000);
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

function spiderFile(name: string, customSettings: string): string {
  const file = join(dir, `${name}.ts`);
  writeFileSync(
    file,
    `import { Spider } from 'seine';
export default class Quiet extends Spider {
  static name = '${name}';
  static customSettings = ${customSettings};
  startUrls = [${JSON.stringify(site.url('/page/1/'))}];
  *parse(response) { yield { title: response.css('title::text').get() }; }
}
`,
  );
  return file;
}

describe('customSettings LOG_*', () => {
  it("LOG_LEVEL: 'INFO' drops the DEBUG lines of the crawl", async () => {
    const loud = await runSeine(['runspider', spiderFile('loud', '{}'), '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(loud.status).toBe(0);
    expect(loud.stderr).toMatch(/\] DEBUG: Crawled \(200\)/);
    const quiet = await runSeine(['runspider', spiderFile('quiet', "{ LOG_LEVEL: 'INFO' }"), '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(quiet.status).toBe(0);
    // Only the command's own line before the spider was loaded is at DEBUG; nothing of the crawl.
    expect(quiet.stderr.split('\n').filter((line) => line.includes('] DEBUG: '))).toEqual([expect.stringContaining('[seine.commands.runspider] DEBUG: Running spider quiet from ')]);
    expect(quiet.stderr).toContain('INFO: Spider closed (finished)');
  }, 60_000);

  it('LOG_FILE sends the crawl\'s log to that file; the command line still wins (-L)', async () => {
    const run = await runSeine(['runspider', spiderFile('filed', "{ LOG_FILE: 'crawl.log', LOG_LEVEL: 'INFO' }"), '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(run.status).toBe(0);
    expect(existsSync(join(dir, 'crawl.log'))).toBe(true);
    expect(readFileSync(join(dir, 'crawl.log'), 'utf8')).toContain('INFO: Spider closed (finished)');
    expect(run.stderr).not.toContain('Spider closed');

    const overridden = await runSeine(['runspider', spiderFile('loudagain', "{ LOG_LEVEL: 'ERROR' }"), '-L', 'DEBUG', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(overridden.stderr).toMatch(/\] DEBUG: Crawled \(200\)/);
  }, 60_000);
});
