/**
 * A spider that mixes plain downloads and pages rendered in Debian's
 * Chromium, run with `seine runspider` against a local site whose quotes
 * are written by JavaScript (and two more loaded by a click): the rendered
 * pages give their quotes, the same pages downloaded plainly give none, and
 * no browser process is left once the crawl is over.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, logMessages, runSeine } from '../cli/fixtures/run-seine.js';
import { JS_QUOTES, MORE_QUOTES, STATIC_QUOTES, startJsSite, type JsSite } from '../helpers/js-site.js';
import { ProcessWatcher } from '../helpers/marked-processes.js';

const TIMEOUT = 90_000;

const SPIDER = `import { PageMethod, Request, Spider, type Response } from 'seine';

export class JsQuotesSpider extends Spider {
  static name = 'jsquotes';
  declare base: string;
  declare plain?: string;

  async *start() {
    yield new Request(this.base);
  }

  *parse(response: Response) {
    for (const href of response.css('a::attr(href)').getall()) {
      const rendered = href.startsWith('/quotes/') && this.plain === undefined;
      const meta = rendered
        ? { playwright: true, playwright_page_methods: [new PageMethod('click', 'button.more'), new PageMethod('waitForSelector', 'div.quote.more')] }
        : {};
      yield response.follow(href, this.parseQuotes, { meta });
    }
  }

  *parseQuotes(response: Response) {
    for (const quote of response.css('div.quote')) {
      yield {
        text: quote.css('span.text::text').get(),
        author: quote.css('small.author::text').get(),
        page: new URL(response.url).pathname,
        rendered: response.flags.includes('playwright'),
      };
    }
  }
}
`;

let site: JsSite;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startJsSite();
  dir = mkdtempSync(join(tmpdir(), 'seine-browser-crawl-'));
  writeFileSync(join(dir, 'jsquotes.ts'), SPIDER);
}, 120_000);
beforeEach(() => site.reset());
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

type Quote = { text: string; author: string; page: string; rendered: boolean };
const sorted = (items: Quote[]): Quote[] => [...items].sort((a, b) => `${a.page}${a.text}`.localeCompare(`${b.page}${b.text}`));

describe('a crawl mixing plain and rendered pages', () => {
  it('scrapes the script-written quotes (and the ones a click loads) from rendered pages, the others plainly, and leaves no browser running', async () => {
    const mark = randomUUID();
    const watcher = new ProcessWatcher('SEINE_TEST_MARK', mark);
    const run = await runSeine(['runspider', 'jsquotes.ts', '-a', `base=${site.url('/')}`, '-O', 'quotes.json', '-s', 'TELNETCONSOLE_ENABLED=false'], dir, { SEINE_TEST_MARK: mark });
    expect(run.status).toBe(0);
    const expected: Quote[] = [
      ...[1, 2].flatMap((n) => [...JS_QUOTES[n]!, ...MORE_QUOTES[n]!].map(([text, author]) => ({ text, author, page: `/quotes/${n}`, rendered: true }))),
      ...STATIC_QUOTES.map(([text, author]) => ({ text, author, page: '/static/', rendered: false })),
    ];
    expect(sorted(JSON.parse(readFileSync(join(dir, 'quotes.json'), 'utf8')) as Quote[])).toEqual(sorted(expected));
    const messages = logMessages(run.stderr);
    expect(messages).toContain(`Crawled (200) <GET ${site.url('/quotes/1')}> (referer: ${site.url('/')}) ['playwright']`);
    expect(messages).toContain(`Crawled (200) <GET ${site.url('/static/')}> (referer: ${site.url('/')})`);
    expect(run.stderr).toContain("'playwright/page_count': 2,");
    expect(run.stderr).toContain("'playwright/browser_count': 1,");
    // The browser loaded the page's image and the click's JSON itself; seine downloaded each page once.
    expect(site.hits.filter((path) => path === '/api/more/1' || path === '/api/more/2').sort()).toEqual(['/api/more/1', '/api/more/2']);
    expect(site.hits.filter((path) => path === '/quotes/1')).toHaveLength(1);
    expect(watcher.seen.size).toBeGreaterThan(3);
    expect(await watcher.leftRunning(5000)).toEqual([]);
  }, TIMEOUT);

  it('the same pages downloaded without the browser have no quotes, and no browser is started', async () => {
    const mark = randomUUID();
    const watcher = new ProcessWatcher('SEINE_TEST_MARK', mark);
    const run = await runSeine(['runspider', 'jsquotes.ts', '-a', `base=${site.url('/')}`, '-a', 'plain=1', '-O', 'plain.json', '-s', 'TELNETCONSOLE_ENABLED=false'], dir, { SEINE_TEST_MARK: mark });
    expect(run.status).toBe(0);
    const items = JSON.parse(readFileSync(join(dir, 'plain.json'), 'utf8')) as Quote[];
    expect(items.filter((item) => item.page.startsWith('/quotes/'))).toEqual([]);
    expect(items).toHaveLength(STATIC_QUOTES.length);
    expect(run.stderr).not.toContain('playwright/');
    watcher.stop();
    // The watcher saw the seine process itself, and nothing of a browser.
    expect([...watcher.seen.values()].filter((command) => /chrom/.test(command))).toEqual([]);
  }, TIMEOUT);
});
