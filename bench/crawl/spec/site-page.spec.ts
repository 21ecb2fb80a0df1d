import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { ENTRIES_PER_PAGE, pagePath, pagerTargets, sitePage } from '../site-page.js';

function hrefs(page: string): string[] {
  return [...page.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]!);
}

describe('the benchmark site pages', () => {
  it('gives the same bytes for the same page every time', () => {
    expect(sitePage(7, 2000)).toBe(sitePage(7, 2000));
    expect(sitePage(7, 2000)).not.toBe(sitePage(8, 2000));
  });

  it('makes pages of ~12.7 KB with 10 entries and ~75 links, as the peers were measured on', () => {
    let bytes = 0;
    let links = 0;
    for (let n = 1; n <= 200; n++) {
      const page = sitePage(n, 2000);
      bytes += Buffer.byteLength(page);
      links += hrefs(page).length;
      expect(page.match(/<div class="entry"/g)).toHaveLength(ENTRIES_PER_PAGE);
    }
    // Pages 1–200 of 2,000; over all 2,000 the mean is 12,698.5 bytes and 75.13 links.
    expect(bytes / 200).toBe(12618.965);
    expect(links / 200).toBe(75.155);
  });

  it('links only to the 10 neighbouring pages, never off the site', () => {
    const links = hrefs(sitePage(1, 2000));
    const targets = new Set(links.map((h) => h.split('#')[0]));
    expect([...targets].sort()).toEqual(pagerTargets(1, 2000).map(pagePath).sort());
    expect(pagerTargets(1, 2000)).toEqual([1997, 1998, 1999, 2000, 2, 3, 4, 5, 6, 7]);
    expect(links.every((h) => h.startsWith('/page/'))).toBe(true);
  });

  it('reaches every page from page 1', () => {
    const total = 300;
    const seen = new Set([1]);
    const todo = [1];
    while (todo.length > 0) for (const n of pagerTargets(todo.pop()!, total)) if (!seen.has(n)) (seen.add(n), todo.push(n));
    expect(seen.size).toBe(total);
  });

  it('keeps the bytes of page 1 of 2,000 (numbers published from them stay comparable)', () => {
    expect(createHash('sha256').update(sitePage(1, 2000)).digest('hex')).toBe('2e26fc74a16c455188333fb613864a3320865a054e0dbb4a98190687c40e33ac');
  });
});
