/**
 * The demo site's data arranged for its pages: listing pages of ten quotes,
 * the tags with their counts, author slugs. Pure functions of quotes-data.ts.
 */
import { AUTHORS, QUOTES, type DemoAuthor, type DemoQuote } from './quotes-data.js';

/** Quotes per listing page, as on quotes.toscrape.com. */
export const PAGE_SIZE = 10;

/** 'Johann Wolfgang von Goethe' → 'Johann-Wolfgang-von-Goethe': the author page's path segment. */
export function authorSlug(name: string): string {
  return name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '');
}

export function authorBySlug(slug: string): DemoAuthor | undefined {
  return AUTHORS.find((author) => authorSlug(author.name) === slug);
}

/** The quotes with `tag` (all of them when `tag` is undefined), in the site's order. */
export function quotesTagged(tag: string | undefined): readonly DemoQuote[] {
  return tag === undefined ? QUOTES : QUOTES.filter((quote) => quote.tags.includes(tag));
}

/** Page `n` (from 1) of `quotes`, or undefined past the end: an empty page is a 404. */
export function pageOf(quotes: readonly DemoQuote[], n: number): { quotes: readonly DemoQuote[]; hasNext: boolean } | undefined {
  if (!Number.isInteger(n) || n < 1) return undefined;
  const slice = quotes.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE);
  if (slice.length === 0) return undefined;
  return { quotes: slice, hasNext: n * PAGE_SIZE < quotes.length };
}

/** The ten most used tags, most used first, ties by name: the sidebar. */
export function topTags(count = 10): Array<{ tag: string; count: number }> {
  const counts = new Map<string, number>();
  for (const quote of QUOTES) for (const tag of quote.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts]
    .map(([tag, n]) => ({ tag, count: n }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag))
    .slice(0, count);
}
