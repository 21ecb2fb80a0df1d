/**
 * The demo site's HTML, shaped like quotes.toscrape.com (Scrapy's tutorial
 * site) so that the selectors of the tutorial carry over: `div.quote` >
 * `span.text`, `small.author`, `div.tags a.tag`, and `li.next a` /
 * `li.previous a` in the pager. Texts are written with entities (`&amp;`,
 * `&mdash;`) and curly quotes, as real pages are, so users see selectors
 * decode them.
 */
import type { DemoAuthor, DemoQuote } from './quotes-data.js';
import { authorSlug, topTags } from './site-model.js';

export const SITE_TITLE = 'Quotes to Scrape';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '—': '&mdash;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"—]/g, (char) => ESCAPES[char]!);
}

function layout(title: string, main: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
    <meta charset="UTF-8">
    <title>${escapeHtml(title)}</title>
    <link rel="stylesheet" href="/static/main.css">
</head>
<body>
    <div class="container">
        <div class="row header-box">
            <div class="col-md-8">
                <h1>
                    <a href="/" style="text-decoration: none">${SITE_TITLE}</a>
                </h1>
            </div>
            <div class="col-md-4">
                <p class="site-note">A demo site served by seine</p>
            </div>
        </div>
${main}
    </div>
    <footer class="footer">
        <div class="container">
            <p class="text-muted">
                Quotes from public-domain authors, bundled with seine for its tutorial (<code>seine demo --serve</code>).
            </p>
        </div>
    </footer>
</body>
</html>
`;
}

function quoteHtml(quote: DemoQuote): string {
  const tags = quote.tags.map((tag) => `            <a class="tag" href="/tag/${tag}/page/1/">${tag}</a>`).join('\n');
  return `    <div class="quote" itemscope itemtype="http://schema.org/CreativeWork">
        <span class="text" itemprop="text">“${escapeHtml(quote.text)}”</span>
        <span>by <small class="author" itemprop="author">${escapeHtml(quote.author)}</small>
        <a href="/author/${authorSlug(quote.author)}/">(about)</a>
        </span>
        <div class="tags">
            Tags:
            <meta class="keywords" itemprop="keywords" content="${quote.tags.join(',')}">
${tags}
        </div>
    </div>`;
}

function pagerHtml(pagePath: (n: number) => string, page: number, hasNext: boolean): string {
  const items: string[] = [];
  if (page > 1) items.push(`            <li class="previous">\n                <a href="${pagePath(page - 1)}"><span aria-hidden="true">&larr;</span> Previous</a>\n            </li>`);
  if (hasNext) items.push(`            <li class="next">\n                <a href="${pagePath(page + 1)}">Next <span aria-hidden="true">&rarr;</span></a>\n            </li>`);
  return `    <nav>\n        <ul class="pager">\n${items.join('\n')}\n        </ul>\n    </nav>`;
}

function sidebarHtml(): string {
  const tags = topTags()
    .map(({ tag, count }) => `        <span class="tag-item">\n            <a class="tag" style="font-size: ${10 + count}px" href="/tag/${tag}/">${tag}</a>\n        </span>`)
    .join('\n');
  return `    <div class="col-md-4 tags-box">\n        <h2>Top Ten tags</h2>\n${tags}\n    </div>`;
}

/** A listing page: `/page/<n>/` (no `tag`) or `/tag/<tag>/page/<n>/`. */
export function listingPage(options: { tag?: string; page: number; quotes: readonly DemoQuote[]; hasNext: boolean }): string {
  const { tag, page, quotes, hasNext } = options;
  const pagePath = (n: number): string => (tag === undefined ? `/page/${n}/` : `/tag/${tag}/page/${n}/`);
  const heading = tag === undefined ? '' : `    <h3>Viewing tag: <a href="/tag/${tag}/page/1/">${tag}</a></h3>\n`;
  const main = `<div class="row">
    <div class="col-md-8">
${heading}${quotes.map(quoteHtml).join('\n')}
${pagerHtml(pagePath, page, hasNext)}
    </div>
${sidebarHtml()}
</div>`;
  return layout(SITE_TITLE, main);
}

export function authorPage(author: DemoAuthor): string {
  const main = `<div class="author-details">
    <h3 class="author-title">${escapeHtml(author.name)}</h3>
    <p><strong>Born:</strong> <span class="author-born-date">${escapeHtml(author.born)}</span> <span class="author-born-location">${escapeHtml(author.bornLocation)}</span></p>
    <p><strong>Description:</strong></p>
    <div class="author-description">
        ${escapeHtml(author.description)}
    </div>
</div>`;
  return layout(`${SITE_TITLE}: ${author.name}`, main);
}

export function notFoundPage(path: string): string {
  const main = `<div class="row">
    <div class="col-md-8">
        <h2>Not found</h2>
        <p>Nothing lives at <code>${escapeHtml(path)}</code> on this site. Start from <a href="/">the first page</a>.</p>
    </div>
</div>`;
  return layout(`${SITE_TITLE}: not found`, main);
}

/** Bootstrap-like rules, enough for the pages to look like a site in a browser (`seine view`, the tutorial). */
export const MAIN_CSS = `body { font-family: "Helvetica Neue", Helvetica, Arial, sans-serif; color: #333; margin: 0; }
a { color: #3677e8; text-decoration: none; }
a:hover { text-decoration: underline; }
.container { max-width: 1140px; margin: 0 auto; padding: 0 15px; }
.row { display: flex; flex-wrap: wrap; margin: 0 -15px; }
.col-md-8 { flex: 0 0 66.666%; padding: 0 15px; box-sizing: border-box; }
.col-md-4 { flex: 0 0 33.333%; padding: 0 15px; box-sizing: border-box; }
.header-box { padding: 20px 0; }
.header-box h1 a { font-family: Georgia, serif; color: #333; font-weight: normal; }
.site-note { text-align: right; color: #777; }
.quote { padding: 10px; margin-bottom: 30px; border: 1px solid #333; border-radius: 5px; box-shadow: 2px 2px 3px #333; }
.quote span.text { display: block; margin-bottom: 5px; font-size: large; font-style: italic; }
.quote .author { font-weight: bold; }
.tags .tag, .tags-box .tag { padding: 2px 5px; margin-right: 4px; border-radius: 5px; background: #7ca3e6; color: #fff; font-size: 13px; }
.tags-box h2 { font-size: 20px; }
.tag-item { display: inline-block; margin: 2px; }
.pager { list-style: none; padding: 0; display: flex; justify-content: space-between; }
.pager .next { margin-left: auto; }
.pager a { display: inline-block; padding: 5px 14px; border: 1px solid #ddd; border-radius: 15px; }
.author-details { padding: 0 0 40px; }
.footer { margin-top: 40px; padding: 30px 0; border-top: 1px solid #e5e5e5; color: #777; }
`;
