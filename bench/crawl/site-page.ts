/**
 * The pages of the benchmark site: the listing page Scrapy and Crawlee were
 * measured on (docs/performance.md, "Scrapy and Crawlee on the benchmark
 * site") — ~12.7 KB, 10 entries to extract, ~75 links of which 10 go to
 * other pages of the site.
 *
 * There the peers crawled 2,000 such pages and made ~142,000 candidate
 * requests, ~140,000 of them duplicates: the spider follows every link on a
 * page (~71 each) and still reaches only the 2,000 pages. So every link here
 * leads back into the page set: the pager links name the 10 neighbouring
 * pages, and the entry, navigation and footer links point at those same 10
 * (entries with a `#fragment`, which the request fingerprint drops, as an
 * in-site anchor does), so a page offers ~75 candidate requests for at most
 * 10 new pages. There are no links off the site: the crawl never leaves
 * 127.0.0.1, whatever the crawler's offsite handling does.
 *
 * The markup around the links is bench/selectors/listing-page.ts's (same
 * classes, microdata and noise), so the extraction costs what the selector
 * benchmark measured.
 */

import { Prng, escapeHtml, personName, price, sentences, title, TAGS } from '../selectors/text-source.js';

export const DEFAULT_PAGES = 2000;
export const ENTRIES_PER_PAGE = 10;
/** Distinct other pages each page links to. */
export const PAGER_LINKS = 10;

/** The path of page `n` (1-based). */
export function pagePath(n: number): string {
  return `/page/${n}/`;
}

/** Neighbouring page numbers (−4…−1, +1…+6), wrapping around: every page has PAGER_LINKS of them and all pages are reachable from page 1. */
export function pagerTargets(pageNumber: number, total: number): number[] {
  const out: number[] = [];
  for (let offset = -4; out.length < Math.min(PAGER_LINKS, total - 1); offset++) {
    if (offset === 0) continue;
    const n = ((pageNumber - 1 + offset + total * 2) % total) + 1;
    if (n !== pageNumber && !out.includes(n)) out.push(n);
  }
  return out;
}

function entry(rng: Prng, id: number, near: () => string): string {
  const name = title(rng);
  const author = personName(rng);
  const tags = rng.sample(TAGS, rng.int(2, 5));
  const stock = rng.chance(0.8);
  const rating = rng.pick(['One', 'Two', 'Three', 'Four', 'Five']);
  const tagLinks = tags.map((t) => `<a class="tag" href="${near()}#tag-${t}">${t}</a>`).join('\n        ');
  return `  <div class="entry" itemscope itemtype="http://schema.org/Book" data-id="${id}">
    <h2 class="entry-title"><a href="${near()}#item-${id}" title="${escapeHtml(name)}" itemprop="url">${escapeHtml(name)}</a></h2>
    <div class="meta">
      <span>by <a class="author" href="${near()}#author-${id}" itemprop="author">${escapeHtml(author)}</a></span>
      <p class="star-rating ${rating}"><i class="icon-star"></i></p>
      <span class="price" itemprop="price">${price(rng)}</span>
      <span class="availability ${stock ? 'in-stock' : 'out-of-stock'}">${stock ? 'In stock' : 'Out of stock'}&nbsp;&#10003;</span>
    </div>
    <div class="tags">
      Tags:
        ${tagLinks}
    </div>
    <p class="description" itemprop="description">${escapeHtml(sentences(rng, rng.int(2, 4)))} &hellip;</p>
  </div>
`;
}

/** Page `pageNumber` (1-based) of `total`; the same arguments always give the same bytes. */
export function sitePage(pageNumber: number, total: number = DEFAULT_PAGES): string {
  const rng = new Prng(0x5e17e + pageNumber * 7919);
  const targets = pagerTargets(pageNumber, total);
  const near = (): string => pagePath(rng.pick(targets));
  const entries: string[] = [];
  for (let i = 0; i < ENTRIES_PER_PAGE; i++) entries.push(entry(rng, (pageNumber - 1) * ENTRIES_PER_PAGE + i + 1, near));
  const prev = targets[3] ?? targets[0]!;
  const next = targets[4] ?? targets[0]!;
  const numbered = targets
    .filter((n) => n !== prev && n !== next)
    .map((n) => `<li><a href="${pagePath(n)}">${n}</a></li>`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>Books &amp; Quotes &mdash; page ${pageNumber}</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="description" content="Books and quotes, page ${pageNumber} of ${total}: titles, authors, prices and tags.">
  <link rel="stylesheet" href="/static/main.css">
  <script>window.dataLayer = window.dataLayer || []; dataLayer.push({"page": ${pageNumber}, "type": "listing"});</script>
</head>
<body>
<div class="container">
  <header class="row header-box">
    <div class="col-md-8"><h1><a href="${near()}" style="text-decoration: none">Books &amp; Quotes</a></h1></div>
    <div class="col-md-4"><p><a href="${near()}">Login</a></p></div>
    <nav><a href="${near()}">Catalogue</a> | <a href="${near()}">Authors</a> | <a href="${near()}">About</a></nav>
  </header>
<div class="row"><div class="col-md-8">
${entries.join('')}
  <nav class="pagination">
    <ul class="pager">
      <li class="previous"><a href="${pagePath(prev)}"><span aria-hidden="true">&larr;</span> Previous</a></li>
      ${numbered}
      <li class="next"><a href="${pagePath(next)}">Next <span aria-hidden="true">&rarr;</span></a></li>
    </ul>
  </nav>
</div></div>
</div>
<footer class="footer">
  <div class="container">
    <p class="text-muted">Generated for seine's crawl benchmark.
      <a href="${near()}">Terms</a> &middot; <a href="${near()}">Privacy</a> &middot; <a href="${near()}">Contact</a></p>
    <p class="copyright">&copy; 2024 <a href="${near()}">Example Ltd</a> &middot; <a href="${near()}">Sitemap</a></p>
  </div>
</footer>
</body>
</html>
`;
}
