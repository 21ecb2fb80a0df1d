/**
 * Writes the benchmark's pages. Run directly to (re)write the two saved
 * pages after changing a template:
 *
 *   node --import tsx bench/selectors/generate-pages.ts
 *
 * The saved pages are committed so that anyone (and parsel) reads exactly
 * the bytes the published numbers came from. The 1,000 listing pages are
 * not: 12.7 MB of near-identical files would bloat the repository for
 * something the generator rebuilds byte-for-byte in well under a second, so
 * run.ts writes them to a temporary folder each run and both engines read
 * them from there.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cataloguePage } from './catalogue-page.js';
import { LISTING_PAGES, listingFileName, listingPage } from './listing-page.js';
import { quotesPage } from './quotes-page.js';

export const SAVED_PAGES_DIR = fileURLToPath(new URL('./pages/', import.meta.url));

/** File name → generator of each committed page. */
export const SAVED_PAGES: ReadonlyArray<{ file: string; build: () => string }> = [
  { file: 'page-10k.html', build: quotesPage },
  { file: 'page-100k.html', build: cataloguePage },
];

export function writeSavedPages(dir: string = SAVED_PAGES_DIR): string[] {
  mkdirSync(dir, { recursive: true });
  return SAVED_PAGES.map(({ file, build }) => {
    const path = join(dir, file);
    writeFileSync(path, build());
    return path;
  });
}

/** Saved pages whose committed bytes no longer match their generator (edited template, not regenerated). */
export function staleSavedPages(dir: string = SAVED_PAGES_DIR): string[] {
  return SAVED_PAGES.filter(({ file, build }) => {
    try {
      return readFileSync(join(dir, file), 'utf8') !== build();
    } catch {
      return true;
    }
  }).map(({ file }) => file);
}

/** Writes listing-0001.html … into `dir` and returns the file names in page order. */
export function writeListingSet(dir: string, count: number = LISTING_PAGES): string[] {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let page = 1; page <= count; page++) {
    const file = listingFileName(page);
    writeFileSync(join(dir, file), listingPage(page, count));
    files.push(file);
  }
  return files;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const path of writeSavedPages()) console.log(`wrote ${path}`);
}
