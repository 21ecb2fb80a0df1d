import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageSet } from '../page-sets.js';
import { loadQueries } from '../queries.js';
import { loadSelector, runSeine } from '../seine-runner.js';
import { Selector } from './fixtures/fake-engine.js';

const FAST = { seconds: 0.01, warmup: 0.001, repeat: 1 };
const scratch = mkdtempSync(join(tmpdir(), 'seine-bench-spec-'));
const options = (detail: boolean) => ({ ...FAST, detail, valuesPath: join(scratch, 'values.json') });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const FAKE_ENGINE = fileURLToPath(new URL('./fixtures/fake-engine.ts', import.meta.url));
const queries = loadQueries();
const listing: PageSet = { name: 'listing', dir: '/nowhere', files: ['listing-0001.html', 'listing-0002.html'], pages: ['<p>1</p>', '<p>2</p>'] };

describe('runSeine on the listing set', () => {
  const run = runSeine(Selector, [listing], queries, options(false), () => {});
  const set = run.result.sets[0]!;

  it('extracts what a spider would: four fields per entry, then every link', () => {
    expect(run.values()['listing']![0]!.map((q) => q.label)).toEqual([
      'entry 1 title (css:h2 a::text .get())',
      'entry 1 url (css:h2 a::attr(href) .get())',
      'entry 1 price (css:.price::text .get())',
      'entry 1 tags (css:.tags a::text .getall())',
      'entry 2 title (css:h2 a::text .get())',
      'entry 2 url (css:h2 a::attr(href) .get())',
      'entry 2 price (css:.price::text .get())',
      'entry 2 tags (css:.tags a::text .getall())',
      'links (css:a::attr(href))',
    ]);
    // per page: 2 entries × (title + url + 2 tags) + 3 links
    expect(set.strings).toBe(2 * 11);
  });

  it('reports a field that throws once, with the page, and leaves it out of the timing instead of stopping', () => {
    expect(set.errors).toEqual(['listing-0001.html: entry 1 price (css:.price::text .get()): Error: fake engine cannot run css:.price::text']);
    expect(run.skip).toEqual({ listing: ['price'] });
    expect(set.pagesPerSecond).toBeGreaterThan(0);
    expect(set.runs.length).toBe(1);
  });
});

describe('runSeine on a saved page', () => {
  it('times the queries that work and reports the others', () => {
    const page: PageSet = { name: 'page-10k.html', dir: '/nowhere', files: ['page-10k.html'], pages: ['<title>x</title>'] };
    const run = runSeine(Selector, [page], queries, options(true), () => {});
    const set = run.result.sets[0]!;
    expect(set.errors.length).toBe(19);
    expect(set.errors[0]).toBe('css:div.quote span.text::text: Error: fake engine cannot run css:div.quote span.text::text');
    expect(run.skip['page-10k.html']!.length).toBe(19);
    expect(run.values()['page-10k.html']![0]!.filter((q) => q.values !== undefined).map((q) => q.label)).toEqual([
      'css:a::attr(href)',
      'css:title::text',
      'xpath://h1/a/text()',
    ]);
    expect(set.pagesPerSecond).toBeGreaterThan(0);
    expect(set.perQueryMs!.filter((ms) => ms !== null).length).toBe(3);
    expect(set.parseOnly).toBeGreaterThan(0);
  });

  it('leaves a page that cannot be parsed untimed, with the parser message on every query', () => {
    const page: PageSet = { name: 'page-10k.html', dir: '/nowhere', files: ['page-10k.html'], pages: ['UNPARSABLE'] };
    const set = runSeine(Selector, [page], queries, options(false), () => {}).result.sets[0]!;
    expect(set.pagesPerSecond).toBeNull();
    expect(set.errors[0]).toBe('css:div.quote span.text::text: not run: parsing the page failed: Error: fake parser gives up');
  });
});

describe('loadSelector', () => {
  it('loads the Selector export of the first module that has one', async () => {
    const loaded = await loadSelector(['/nowhere/missing.js', FAKE_ENGINE]);
    expect(loaded.Selector).not.toBeNull();
  });

  it('explains every module it tried when none has a Selector', async () => {
    const here = fileURLToPath(new URL('./fixtures/no-selector.ts', import.meta.url));
    const loaded = await loadSelector([here]);
    expect(loaded).toEqual({ Selector: null, problems: [`file://${here} has no Selector export`] });
  });
});
