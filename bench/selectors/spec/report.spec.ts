import { describe, expect, it } from '@jest/globals';
import { formatRate, headlineTable, verdict } from '../report.js';
import type { SetResult } from '../results.js';

const set = (name: string, pagesPerSecond: number | null, runs: number[] = [], errors: string[] = []): SetResult => ({
  name,
  pages: 1,
  strings: 0,
  pagesPerSecond,
  runs,
  errors,
});

describe('verdict', () => {
  it('is PASS at or above the target ratio and BELOW under it', () => {
    expect(verdict({ label: '', seine: set('listing', 2500), parsel: set('listing', 1000), disagrees: false })).toBe('PASS');
    expect(verdict({ label: '', seine: set('listing', 2499), parsel: set('listing', 1000), disagrees: false })).toBe('BELOW');
    expect(verdict({ label: '', seine: set('page-100k.html', 25), parsel: set('page-100k.html', 50), disagrees: false })).toBe('PASS');
  });

  it('marks a result with a star when queries failed or the engines extracted different strings', () => {
    expect(verdict({ label: '', seine: set('listing', 3000, [], ['x: boom']), parsel: set('listing', 1000), disagrees: false })).toBe('PASS*');
    expect(verdict({ label: '', seine: set('listing', 3000), parsel: set('listing', 1000), disagrees: true })).toBe('PASS*');
  });

  it('says NOT MEASURED when seine could not run and — without a target or parsel', () => {
    expect(verdict({ label: '', seine: undefined, parsel: set('listing', 1000), disagrees: false })).toBe('NOT MEASURED');
    expect(verdict({ label: '', seine: set('listing', 10), parsel: undefined, disagrees: false })).toBe('—');
    expect(verdict({ label: '', seine: set('page-10k.html', 10), parsel: set('page-10k.html', 10), disagrees: false })).toBe('—');
  });
});

describe('headlineTable', () => {
  it('prints set, both rates with their spread, the ratio, the target and the result', () => {
    const rows = [
      { label: 'page-10k.html (11.0 KB)', seine: set('page-10k.html', 900, [890, 900, 910]), parsel: set('page-10k.html', 450, [450]), disagrees: false },
      { label: 'listing (1,000 × 12.7 KB)', seine: set('listing', 650.4, [640, 650.4, 660]), parsel: set('listing', 700), disagrees: false },
    ];
    expect(headlineTable(rows)).toBe(
      [
        'page set                   seine pages/s  parsel pages/s  seine/parsel  target  result',
        '-------------------------  -------------  --------------  ------------  ------  ------',
        'page-10k.html (11.0 KB)          900 ±1%             450         2.00×  —       —',
        'listing (1,000 × 12.7 KB)        650 ±2%             700         0.93×  ≥ 2.5×  BELOW',
      ].join('\n'),
    );
  });
});

describe('formatRate', () => {
  it('rounds to whole pages/s from 100 up and keeps one decimal below', () => {
    expect([formatRate(1084.4), formatRate(54.47), formatRate(null)]).toEqual(['1,084', '54.5', '—']);
  });
});
