/**
 * The three page sets, read into memory before anything is timed. Both
 * engines get the same folders and file names.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAVED_PAGES_DIR, writeListingSet } from './generate-pages.js';

export interface PageSet {
  /** 'page-10k.html', 'page-100k.html' or 'listing'. */
  name: string;
  dir: string;
  files: string[];
  pages: string[];
}

export const LISTING_SET = 'listing';

function readSet(name: string, dir: string, files: string[]): PageSet {
  return { name, dir, files, pages: files.map((f) => readFileSync(join(dir, f), 'utf8')) };
}

export function savedSet(file: string, dir: string = SAVED_PAGES_DIR): PageSet {
  return readSet(file, dir, [file]);
}

export interface ListingSet extends PageSet {
  /** A file listing the page names one per line, for parsel_bench.py. */
  listFile: string;
  /** Removes the temporary folder. */
  dispose(): void;
}

/** Generates `count` listing pages into a fresh temporary folder and reads them back. */
export function listingSet(count: number): ListingSet {
  const dir = mkdtempSync(join(tmpdir(), 'seine-bench-listing-'));
  const files = writeListingSet(dir, count);
  const listFile = join(dir, 'files.txt');
  writeFileSync(listFile, files.join('\n') + '\n');
  return { ...readSet(LISTING_SET, dir, files), listFile, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
