import { describe, expect, it } from '@jest/globals';
import { SAVED_PAGES_DIR } from '../generate-pages.js';
import { listingSet } from '../page-sets.js';
import { parselDumpPath, parselUnavailable, runParsel } from '../parsel-runner.js';
import { QUERIES_PATH, describeQuery, listingFieldLabel, listingLinksLabel, loadQueries } from '../queries.js';

// parsel_bench.py needs Debian's python3-parsel; without it the harness prints how to enable it, and these are skipped.
const withParsel = parselUnavailable() === null ? it : it.skip;

describe('parsel_bench.py', () => {
  withParsel('extracts the same number of strings every run and labels them as seine does', async () => {
    const listing = listingSet(3);
    try {
      const run = await runParsel(
        {
          queriesPath: QUERIES_PATH,
          savedDir: SAVED_PAGES_DIR,
          listing,
          timing: { seconds: 0.05, warmup: 0.01, repeat: 2 },
          skip: { listing: ['links'] },
          detail: false,
          dumpPath: parselDumpPath(listing),
        },
        () => {},
      );
      const sets = run.result.sets;
      expect(sets.map((s) => [s.name, s.pages, s.strings, s.errors, s.runs.length])).toEqual([
        ['page-10k.html', 1, 692, [], 2],
        ['page-100k.html', 1, 5555, [], 2],
        ['listing', 3, 412, [], 2],
      ]);
      for (const s of sets) expect(s.pagesPerSecond).toBeGreaterThan(0);
      expect(run.result.versions['parsel']).toBe('1.7.0');

      const queries = loadQueries();
      expect(run.values['page-100k.html']![0]!.map((q) => q.label)).toEqual(queries.saved['page-100k.html']!.map(describeQuery));
      const firstPage = run.values['listing']![0]!;
      expect(firstPage[2]).toEqual({ label: listingFieldLabel(1, queries.listing.fields[2]!), values: ['£15.98'] });
      expect(firstPage.at(-1)!.label).toBe(listingLinksLabel(queries.listing));
      expect(run.values['page-10k.html']![0]!.find((q) => q.label === 'xpath:count(//a)')).toEqual({ label: 'xpath:count(//a)', values: ['55.0'] });
    } finally {
      listing.dispose();
    }
  }, 60_000);
});
