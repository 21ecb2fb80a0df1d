/** `seine genspider` through the real binary, inside and outside a project. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, runSeine } from './fixtures/run-seine.js';

const TIMEOUT = 60_000;
let dir: string;
let project: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'seine-genspider-'));
  expect(await runSeine(['startproject', 'tutorial'], dir)).toMatchObject({ status: 0, stderr: '' });
  project = join(dir, 'tutorial');
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seine genspider', () => {
  it('lists the templates with --list and -l', async () => {
    const expected = { status: 0, signal: null, stdout: 'Available templates:\n  basic\n  crawl\n  csvfeed\n  xmlfeed\n', stderr: '' };
    expect(await runSeine(['genspider', '--list'], dir)).toEqual(expected);
    expect(await runSeine(['genspider', '-l'], dir)).toEqual(expected);
  }, TIMEOUT);

  it("writes into the project's NEWSPIDER_MODULE folder from any folder of the project", async () => {
    expect(await runSeine(['genspider', 'quotes', 'quotes.toscrape.com'], join(project, 'tutorial'))).toEqual({
      status: 0,
      signal: null,
      stdout: "Created spider 'quotes' using template 'basic' in module:\n  tutorial/spiders/quotes.ts\n",
      stderr: '',
    });
    const text = readFileSync(join(project, 'tutorial', 'spiders', 'quotes.ts'), 'utf8');
    expect(text).toContain("export class QuotesSpider extends Spider {\n  static name = 'quotes';\n  allowedDomains = ['quotes.toscrape.com'];\n  startUrls = ['http://quotes.toscrape.com/'];\n");
    expect(await runSeine(['list'], project)).toMatchObject({ status: 0, stdout: 'quotes\n' });
  }, TIMEOUT);

  it('keeps the port in startUrls but not in allowedDomains, which takes host names only', async () => {
    const result = await runSeine(['genspider', 'local', '127.0.0.1:8000'], dir);
    expect(result).toMatchObject({ status: 0 });
    const text = readFileSync(join(dir, 'local.ts'), 'utf8');
    expect(text).toContain("  allowedDomains = ['127.0.0.1'];\n  startUrls = ['http://127.0.0.1:8000/'];\n");
  }, TIMEOUT);

  it('generates each template with -t', async () => {
    for (const [template, base] of [['crawl', 'CrawlSpider'], ['xmlfeed', 'XMLFeedSpider'], ['csvfeed', 'CSVFeedSpider']] as const) {
      const name = `${template}er`;
      const result = await runSeine(['genspider', '-t', template, name, 'example.com'], dir);
      expect(result).toMatchObject({ status: 0, stdout: `Created spider '${name}' using template '${template}'\n` });
      const text = readFileSync(join(dir, `${name}.ts`), 'utf8');
      expect(text).toContain(`from 'seine';`);
      expect(text).toContain(`export class ${name[0]!.toUpperCase()}${name.slice(1)}Spider extends ${base} {\n  static name = '${name}';`);
    }
  }, TIMEOUT);

  it('refuses a name a spider of the project already has', async () => {
    expect(await runSeine(['genspider', 'quotes', 'other.example'], project)).toEqual({
      status: 1,
      signal: null,
      stdout: '',
      stderr: "seine: Spider 'quotes' already exists in tutorial/spiders/quotes.ts: choose another name, or edit that file\n",
    });
  }, TIMEOUT);

  it("refuses the project's own name", async () => {
    expect(await runSeine(['genspider', 'tutorial', 'example.com'], project)).toMatchObject({
      status: 1,
      stderr: "seine: Cannot create a spider with the same name as your project ('tutorial'): choose another name\n",
    });
  }, TIMEOUT);

  it('refuses an unknown template', async () => {
    expect(await runSeine(['genspider', '-t', 'fancy', 'x', 'example.com'], dir)).toMatchObject({
      status: 1,
      stderr: 'seine: Unable to find template: fancy: use "seine genspider --list" to see all available templates\n',
    });
    expect(existsSync(join(dir, 'x.ts'))).toBe(false);
  }, TIMEOUT);

  it('needs a name and a domain (usage error, exit 2)', async () => {
    expect(await runSeine(['genspider', 'only-name'], dir)).toMatchObject({
      status: 2,
      stderr: "seine: genspider needs a spider name and a domain, e.g. seine genspider example example.com — run 'seine genspider --help' for usage\n",
    });
  }, TIMEOUT);
});
