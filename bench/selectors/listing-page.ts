/**
 * The listing pages: the page a crawl spends most of its parsing on, as on
 * the benchmark site Scrapy and Crawlee were crawled on (docs/performance.md):
 * ~12.7 KB, 10 entries to extract, ~75 links of which 10 go to other listing
 * pages.
 *
 * Each entry has what a spider pulls out of it — a title link, an author
 * link and a price, 2–5 tag links, a description paragraph — wrapped in the
 * usual noise (microdata attributes, icons, entities).
 */

import { Prng, escapeHtml, personName, price, sentences, slug, title, TAGS } from './text-source.js';

export const LISTING_PAGES = 1000;
export const ENTRIES_PER_PAGE = 10;
/** Links from a listing page to other listing pages (pager). */
export const PAGER_LINKS = 10;

export function listingFileName(pageNumber: number): string {
  return `listing-${String(pageNumber).padStart(4, '0')}.html`;
}

function entry(rng: Prng, id: number): string {
  const name = title(rng);
  const author = personName(rng);
  const tags = rng.sample(TAGS, rng.int(2, 5));
  const stock = rng.chance(0.8);
  const rating = rng.pick(['One', 'Two', 'Three', 'Four', 'Five']);
  const tagLinks = tags.map((t) => `<a class="tag" href="/tag/${t}/page/1/">${t}</a>`).join('\n        ');
  return `  <div class="entry" itemscope itemtype="http://schema.org/Book" data-id="${id}">
    <h2 class="entry-title"><a href="/item/${id}/${slug(name)}/" title="${escapeHtml(name)}" itemprop="url">${escapeHtml(name)}</a></h2>
    <div class="meta">
      <span>by <a class="author" href="/author/${slug(author)}/" itemprop="author">${escapeHtml(author)}</a></span>
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

/** Neighbouring page numbers, wrapping around so every page has exactly PAGER_LINKS of them. */
function pagerTargets(pageNumber: number, total: number): number[] {
  const out: number[] = [];
  for (let offset = -4; out.length < PAGER_LINKS; offset++) {
    if (offset === 0) continue;
    out.push(((pageNumber - 1 + offset + total * 2) % total) + 1);
  }
  return out;
}

/** Listing page `pageNumber` (1-based) of `total`; the same arguments always give the same bytes. */
export function listingPage(pageNumber: number, total: number = LISTING_PAGES): string {
  const rng = new Prng(0x5e17e + pageNumber * 7919);
  const entries: string[] = [];
  for (let i = 0; i < ENTRIES_PER_PAGE; i++) entries.push(entry(rng, (pageNumber - 1) * ENTRIES_PER_PAGE + i + 1));
  const targets = pagerTargets(pageNumber, total);
  const prev = targets[3]!;
  const next = targets[4]!;
  const numbered = [...targets.slice(0, 3), ...targets.slice(5)]
    .map((n) => `<li><a href="/page/${n}/">${n}</a></li>`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>Books &amp; Quotes &mdash; page ${pageNumber}</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="description" content="Books and quotes, page ${pageNumber} of ${total}: titles, authors, prices and tags.">
  <link rel="canonical" href="https://books.example.com/page/${pageNumber}/">
  <link rel="stylesheet" href="/static/main.css">
  <script>window.dataLayer = window.dataLayer || []; dataLayer.push({"page": ${pageNumber}, "type": "listing"});</script>
</head>
<body>
<div class="container">
  <header class="row header-box">
    <div class="col-md-8"><h1><a href="/" style="text-decoration: none">Books &amp; Quotes</a></h1></div>
    <div class="col-md-4"><p><a href="/login">Login</a></p></div>
    <nav><a href="/catalogue/">Catalogue</a> | <a href="/authors/">Authors</a> | <a href="/about/">About</a></nav>
  </header>
<div class="row"><div class="col-md-8">
${entries.join('')}
  <nav class="pagination">
    <ul class="pager">
      <li class="previous"><a href="/page/${prev}/"><span aria-hidden="true">&larr;</span> Previous</a></li>
      ${numbered}
      <li class="next"><a href="/page/${next}/">Next <span aria-hidden="true">&rarr;</span></a></li>
    </ul>
  </nav>
</div></div>
</div>
<footer class="footer">
  <div class="container">
    <p class="text-muted">Generated for seine's selector benchmark.
      <a href="/terms/">Terms</a> &middot; <a href="/privacy/">Privacy</a> &middot; <a href="/contact/">Contact</a></p>
    <p class="copyright">&copy; 2024 <a href="https://example.com/">Example Ltd</a> &middot; <a href="/sitemap.xml">Sitemap</a></p>
  </div>
</footer>
</body>
</html>
`;
}
