/**
 * `seine check` through the real binary, in a project made by `seine
 * startproject`, against a local site. The first spiders are Scrapy spiders
 * translated name for name; their output is compared with what Scrapy 2.8's
 * `scrapy check` printed for the originals (fixtures/check/check-scrapy.json,
 * made by fixtures/check/record-check.py), where unittest's tracebacks are
 * read as their last line. The others cover what Scrapy has no fixture for:
 * custom contracts, @meta, errors in the spider's code, the one-line errors.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, runSeine } from './fixtures/run-seine.js';

const TIMEOUT = 60_000;
const FIXTURES = join(import.meta.dirname, 'fixtures', 'check');

interface ScrapyRun {
  args: string[];
  status: number;
  stdout: string;
  stderr: string;
}
const scrapy = JSON.parse(readFileSync(join(FIXTURES, 'check-scrapy.json'), 'utf8')) as Record<string, ScrapyRun>;

// The spiders of record-check.py, in TypeScript.
const TRANSLATED = `import { Spider, type Response } from 'seine';

class Base extends Spider {
  /**
   * @url http://127.0.0.1:PORT/index.html
   * @returns items 2
   */
  *parse_base(response: Response) {
    for (const q of response.css('div.q')) yield { text: q.css('.t::text').get() };
  }
}

export class QuotesSpider extends Base {
  static name = 'quotes';

  /**
   * @url http://127.0.0.1:PORT/index.html
   * @returns items 2 2
   * @returns requests 1
   * @scrapes text author
   */
  *parse(response: Response) {
    for (const q of response.css('div.q')) yield { text: q.css('.t::text').get(), author: q.css('.a::text').get() };
    yield response.follow(response.css('a.next::attr(href)').get()!);
  }

  /**
   * @url http://127.0.0.1:PORT/index.html
   * @returns items 3
   * @returns requests 0 0
   * @scrapes text tags rating
   */
  *parse_bad(response: Response) {
    for (const q of response.css('div.q')) yield { text: q.css('.t::text').get() };
    yield response.follow('/next.html');
  }

  /**
   * @url http://127.0.0.1:PORT/index.html
   * @cb_kwargs {"page": 7}
   * @returns items 1 1
   * @scrapes page
   */
  *parse_kwargs(_response: Response, { page }: { page: number }) {
    yield { page };
  }
}

export class AuthorsSpider extends Spider {
  static name = 'authors';

  /**
   * @url http://127.0.0.1:PORT/index.html
   * @returns requests 1 1
   */
  *parse(response: Response) {
    yield response.follow('/next.html');
  }
}

export class PlainSpider extends Spider {
  static name = 'plain';
}
`;

const CONTRACTS = `import { Contract, ContractFail, type Response } from 'seine';

/** @has_title [text]: the page has a <title> (with this text). */
export class HasTitleContract extends Contract {
  static name = 'has_title';

  preProcess(response: Response) {
    const title = response.css('title::text').get();
    if (title == null) throw new ContractFail('No <title> on ' + response.url);
    if (this.args[0] !== '' && title !== this.args.join(' ')) throw new ContractFail('Title is ' + JSON.stringify(title));
  }
}

/** @post: the callback's request is a POST. */
export class PostContract extends Contract {
  static name = 'post';

  adjustRequestArgs(args: Parameters<Contract['adjustRequestArgs']>[0]) {
    return { ...args, method: 'POST' };
  }
}
`;

const EXTRAS = `import { Spider, type Response } from 'seine';

export class ExtrasSpider extends Spider {
  static name = 'extras';

  /**
   * Custom contracts (from settings.ts), @meta, an async callback.
   * @url http://127.0.0.1:PORT/index.html
   * @has_title Quotes
   * @meta {"tag": "love"}
   * @post
   * @returns items 1 1
   * @scrapes tag method check
   */
  async parse(response: Response) {
    return [{ tag: response.meta['tag'], method: response.request!.method, check: process.env['SEINE_CHECK'] }];
  }

  /**
   * @url http://127.0.0.1:PORT/next.html
   * @has_title Quotes
   */
  parse_next(_response: Response) {
    return [];
  }

  /**
   * @url http://127.0.0.1:PORT/index.html
   * @returns items 0
   */
  parse_throws(response: Response): unknown[] {
    throw new TypeError('no quotes on ' + response.url);
  }

  /**
   * @url http://127.0.0.1:PORT/missing.html
   */
  parse_missing(_response: Response) {
    return [];
  }

  /**
   * @url http://127.0.0.1:PORT/index.html
   * @scrape text
   */
  parse_typo(_response: Response) {
    return [];
  }

  /**
   * @returns items 1
   */
  parse_no_url(_response: Response) {
    return [];
  }

  /**
   * A helper with JSDoc tags is not a callback to check.
   * @param text the text
   * @returns the cleaned text
   */
  clean(text: string) {
    return text.trim();
  }
}

export class OverrideSpider extends ExtrasSpider {
  static name = 'override';

  // Overridden without a comment: no contracts, as in Scrapy.
  override async parse(_response: Response) {
    return [];
  }
  override parse_next(_response: Response) { return []; }
  override parse_throws(_response: Response) { return []; }
  override parse_missing(_response: Response) { return []; }
  override parse_typo(_response: Response) { return []; }
  override parse_no_url(_response: Response) { return []; }

  /**
   * @url http://127.0.0.1:PORT/index.html
   * @returns items 1
   */
  parse_own(_response: Response) {
    return [{ own: true }];
  }
}
`;

let site: TestSite;
let dir: string;
let project: string;

/** unittest's traceback as its last line, without the exception's module (`scrapy.exceptions.ContractFail: …` → `ContractFail: …`). */
function lastLines(text: string): string {
  return text.replace(/Traceback \(most recent call last\):\n(?:\s+.*\n)*?(?:[\w]+\.)*(\w+: .*)\n/g, '$1\n');
}

/** The output with the run time and the port made constant. */
function normal(text: string): string {
  return text.replace(/in \d+\.\d{3}s/g, 'in Ts').replaceAll(String(new URL(site.url('/')).port), 'PORT');
}

/** -v's status lines come in the order the responses arrive: compare them as a set. */
function sortedStatusLines(text: string): string {
  const lines = text.split('\n');
  const end = lines.indexOf('');
  return [...lines.slice(0, end).sort(), ...lines.slice(end)].join('\n');
}

// The contracts alone, as scrapy check runs them: the type check that comes first is check-typecheck.spec.ts's.
function check(...args: string[]): ReturnType<typeof runSeine> {
  return runSeine(['check', '--no-typecheck', ...args], project);
}

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({
    '/index.html': readFileSync(join(FIXTURES, 'site', 'index.html'), 'utf8'),
    '/next.html': readFileSync(join(FIXTURES, 'site', 'next.html'), 'utf8'),
  });
  dir = mkdtempSync(join(tmpdir(), 'seine-check-'));
  expect((await runSeine(['startproject', 'tutorial'], dir)).status).toBe(0);
  project = join(dir, 'tutorial');
  const port = new URL(site.url('/')).port;
  const settingsFile = join(project, 'tutorial', 'settings.ts');
  writeFileSync(settingsFile, readFileSync(settingsFile, 'utf8').replace('export const DOWNLOAD_DELAY = 1;', 'export const DOWNLOAD_DELAY = 0;')
    + "\nexport const SPIDER_CONTRACTS = { HasTitleContract: 10, PostContract: 11 };\nexport const FEEDS = { 'items.json': { format: 'json' } };\n");
  writeFileSync(join(project, 'tutorial', 'contracts.ts'), CONTRACTS);
  writeFileSync(join(project, 'tutorial', 'spiders', 'quotes.ts'), TRANSLATED.replaceAll('PORT', port));
  writeFileSync(join(project, 'tutorial', 'spiders', 'extras.ts'), EXTRAS.replaceAll('PORT', port));
}, 120_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('seine check, against the output of scrapy check for the same spiders', () => {
  it('a passing spider: one dot, the summary, OK and exit status 0', async () => {
    const result = await check(...scrapy['quiet_pass']!.args);
    expect(result.status).toBe(scrapy['quiet_pass']!.status);
    expect(normal(result.stderr)).toBe(scrapy['quiet_pass']!.stderr);
    expect(result.stdout).toBe('');
  }, TIMEOUT);

  it('failures: F for each failed contract, each reason under its test, FAILED (failures=3), exit status 1', async () => {
    const result = await check('quotes', 'authors', 'plain');
    const expected = lastLines(scrapy['quiet']!.stderr);
    expect(result.status).toBe(1);
    const [dots, ...rest] = normal(result.stderr).split('\n');
    const [expectedDots, ...expectedRest] = expected.split('\n');
    // One character per contract, in the order the responses arrived.
    expect([...dots!].sort().join('')).toBe([...expectedDots!].sort().join(''));
    expect(rest.join('\n')).toBe(expectedRest.join('\n'));
    expect(rest).toContain('ContractFail: Returned 2 items, expected 3..inf');
  }, TIMEOUT);

  it('-v: one line per contract with ok or FAIL, then the same report', async () => {
    for (const key of ['verbose', 'verbose_pass']) {
      const result = await check('-v', ...(key === 'verbose' ? ['quotes', 'authors', 'plain'] : scrapy[key]!.args.slice(1)));
      expect(result.status).toBe(scrapy[key]!.status);
      expect(sortedStatusLines(normal(result.stderr))).toBe(sortedStatusLines(lastLines(scrapy[key]!.stderr)));
    }
  }, TIMEOUT);

  it('-l lists the tested callbacks of each spider that has any, sorted, without downloading', async () => {
    site.reset();
    const result = await check('-l', 'quotes', 'authors', 'plain');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(scrapy['list']!.stdout);
    expect(result.stderr).toBe('');
    expect(site.hits).toEqual([]);
  }, TIMEOUT);
});

describe('seine check, beyond the recorded runs', () => {
  it('custom contracts from SPIDER_CONTRACTS, @meta, errors in the callback, error statuses and setup errors', async () => {
    site.reset();
    const result = await check('extras', '-v');
    expect(result.status).toBe(1);
    const out = normal(result.stderr);
    const statusLines = out.split('\n\n')[0]!.split('\n').sort();
    expect(statusLines).toEqual([
      '[extras] parse (@has_title pre-hook) ... ok',
      '[extras] parse (@returns post-hook) ... ok',
      '[extras] parse (@scrapes post-hook) ... ok',
      '[extras] parse_missing (errback) ... ERROR',
      '[extras] parse_next (@has_title pre-hook) ... FAIL',
      '[extras] parse_no_url (contract) ... ERROR',
      '[extras] parse_throws (callback) ... ERROR',
      '[extras] parse_typo (contract) ... ERROR',
    ]);
    expect(out).toContain([
      'ERROR: [extras] parse_throws (callback)',
      '-'.repeat(70),
      'TypeError: no quotes on http://127.0.0.1:PORT/index.html',
      // The frame in the project's own file, relative to it; none of seine's.
      '  at ExtrasSpider.parse_throws (tutorial/spiders/extras.ts:',
    ].join('\n'));
    expect(out).toContain('ERROR: [extras] parse_missing (errback)\n' + '-'.repeat(70) + '\nHttpError: Ignoring non-200 response (404 http://127.0.0.1:PORT/missing.html)\n');
    expect(out).toContain("ContractError: Unknown contract @scrape in parse_typo's doc comment: the contracts are @url, @cb_kwargs, @meta, @returns, @scrapes, @has_title, @post; add your own to SPIDER_CONTRACTS\n");
    expect(out).toContain("ContractError: parse_no_url's doc comment has no @url line: add the page to check it against, e.g. @url https://quotes.toscrape.com/\n");
    expect(out).toContain('FAIL: [extras] parse_next (@has_title pre-hook)\n' + '-'.repeat(70) + '\nContractFail: Title is "Next"\n');
    expect(out.endsWith('Ran 4 contracts in Ts\n\nFAILED (failures=1, errors=4)\n')).toBe(true);
    // @post changed the request; @meta reached the callback (its item passed @scrapes); the helper was not requested.
    expect(site.requests.filter((hit) => hit.path === '/index.html').map((hit) => hit.method).sort()).toEqual(['GET', 'POST']);
    // A check exports nothing, though the project's settings name a feed.
    expect(existsSync(join(project, 'items.json'))).toBe(false);
  }, TIMEOUT);

  it('an inherited callback keeps its contracts, an override without a comment has none', async () => {
    const result = await check('-l', 'override', 'extras');
    expect(result.stdout).toBe([
      'extras', '  * parse', '  * parse_missing', '  * parse_next', '  * parse_no_url', '  * parse_throws', '  * parse_typo',
      'override', '  * parse_own', '',
    ].join('\n'));
    const run = await check('override');
    expect(run.status).toBe(0);
    expect(normal(run.stderr)).toBe(`.\n${'-'.repeat(70)}\nRan 1 contract in Ts\n\nOK\n`);
  }, TIMEOUT);

  it('a spider the project does not have, or a run outside a project: one line, exit status 1', async () => {
    const unknown = await check('nosuch');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe('seine: Spider not found: nosuch (available spiders: authors, extras, override, plain, quotes)\n');
    const outside = await runSeine(['check'], dir);
    expect(outside.status).toBe(1);
    expect(outside.stderr.trim().split('\n')).toHaveLength(1);
    expect(outside.stderr).toMatch(/^seine: .*project/);
  }, TIMEOUT);

  it('-s SPIDER_CONTRACTS can disable a built-in contract, which is then unknown', async () => {
    const result = await check('quotes', '-s', 'SPIDER_CONTRACTS={"ScrapesContract": null}');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("ContractError: Unknown contract @scrapes in parse's doc comment");
  }, TIMEOUT);
});
