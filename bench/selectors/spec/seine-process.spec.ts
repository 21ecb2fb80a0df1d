import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { listingSet } from '../page-sets.js';
import { runSeineSet } from '../seine-process.js';

const FAST = { seconds: 0.01, warmup: 0.001, repeat: 1, detail: false };
const FAKE_ENGINE = pathToFileURL(fileURLToPath(new URL('./fixtures/fake-engine.ts', import.meta.url))).href;

describe('runSeineSet', () => {
  it('runs the set in a child process and brings back its result, skips and strings', async () => {
    const listing = listingSet(2);
    try {
      const run = await runSeineSet(FAKE_ENGINE, listing, { ...FAST, valuesPath: join(listing.dir, 'v.json') }, () => {});
      const set = run.set;
      expect([set.name, set.pages, set.strings, set.runs.length]).toEqual(['listing', 2, 22, 1]);
      expect(set.errors).toEqual(['listing-0001.html: entry 1 price (css:.price::text .get()): Error: fake engine cannot run css:.price::text']);
      expect(run.skip).toEqual({ listing: ['price'] });
      expect(run.values()['listing']![1]!.at(-1)).toEqual({ label: 'links (css:a::attr(href))', values: ['/a', '/b', '/c'] });
    } finally {
      listing.dispose();
    }
  }, 30_000);

  it('reports an engine the child cannot load as that set’s error, not a crash', async () => {
    const listing = listingSet(1);
    try {
      const run = await runSeineSet('file:///nowhere/engine.js', listing, { ...FAST, valuesPath: join(listing.dir, 'v.json') }, () => {});
      const set = run.set;
      expect(set.pagesPerSecond).toBeNull();
      expect(set.errors).toEqual(["file:///nowhere/engine.js: Error: Cannot find module '/nowhere/engine.js' imported from " + fileURLToPath(new URL('../seine-runner.ts', import.meta.url))]);
    } finally {
      listing.dispose();
    }
  }, 30_000);
});
