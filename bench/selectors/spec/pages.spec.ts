import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staleSavedPages, writeListingSet } from '../generate-pages.js';
import { LISTING_PAGES, listingFileName, listingPage } from '../listing-page.js';
import { Prng } from '../text-source.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('Prng', () => {
  it('gives the same sequence for the same seed on every machine', () => {
    const rng = new Prng(42);
    expect([rng.next(), rng.next(), rng.int(1, 6), rng.int(1, 6)]).toEqual([0.6011037519201636, 0.44829055899754167, 6, 5]);
  });

  it('refuses to pick from an empty list, saying what to pass', () => {
    expect(() => new Prng(1).pick([])).toThrow('Prng.pick: the list is empty; pass at least one item');
  });
});

describe('listing pages', () => {
  it('are byte-identical from run to run (both engines and every run read the same bytes)', () => {
    expect(sha256(listingPage(7))).toBe('261787fc2536edb0739d17d1a5d4731e4745ec66da0f845c8aeb00a764b7ed88');
    expect(listingPage(7)).toBe(listingPage(7));
  });

  it('average 12.7 KB with 10 entries and 75 links, as on the benchmark site', () => {
    let bytes = 0;
    let links = 0;
    for (let page = 1; page <= LISTING_PAGES; page++) {
      const html = listingPage(page);
      bytes += Buffer.byteLength(html);
      links += html.match(/<a /g)!.length;
      expect(html.match(/<div class="entry"/g)!.length).toBe(10);
    }
    expect(Math.round(bytes / LISTING_PAGES / 100) / 10).toBe(12.7);
    expect(Math.round(links / LISTING_PAGES)).toBe(75);
  });

  it('link to exactly 10 other listing pages, wrapping around at the ends', () => {
    const targets = (page: number) => [...listingPage(page).matchAll(/href="\/page\/(\d+)\/"/g)].map((m) => Number(m[1]));
    expect(targets(7)).toEqual([6, 3, 4, 5, 9, 10, 11, 12, 13, 8]);
    expect(targets(1)).toEqual([1000, 997, 998, 999, 3, 4, 5, 6, 7, 2]);
  });

  it('are written as listing-0001.html … in page order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'seine-bench-spec-'));
    try {
      expect(writeListingSet(dir, 3)).toEqual(['listing-0001.html', 'listing-0002.html', 'listing-0003.html']);
      expect(readdirSync(dir).sort()).toEqual(['listing-0001.html', 'listing-0002.html', 'listing-0003.html']);
      expect(readFileSync(join(dir, listingFileName(2)), 'utf8')).toBe(listingPage(2, 3));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('saved pages', () => {
  it('are committed exactly as the generator builds them', () => {
    expect(staleSavedPages()).toEqual([]);
  });
});
