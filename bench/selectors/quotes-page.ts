/**
 * The ~10 KB saved page (pages/page-10k.html): a quotes page in the shape of
 * the tutorial site every Scrapy user starts with — doctype, a head with
 * meta/link/script/style, a nav, ten quotes with nested markup and entities,
 * a tag sidebar, a small priced book list, a pager and a footer.
 */

import { Prng, escapeHtml, personName, price, sentence, slug, title, TAGS } from './text-source.js';

function quote(rng: Prng): string {
  const author = personName(rng);
  const tags = rng.sample(TAGS, rng.int(1, 3));
  const text = escapeHtml(sentence(rng)).replace(/ (\w+)\./, ' $1&#39;s.');
  return `    <div class="quote" itemscope itemtype="http://schema.org/CreativeWork">
        <span class="text" itemprop="text">&ldquo;${text}&rdquo;</span>
        <span>by <small class="author" itemprop="author">${escapeHtml(author)}</small>
        <a href="/author/${slug(author)}">(about)</a>
        </span>
        <div class="tags">
            Tags:
            <meta class="keywords" itemprop="keywords" content="${tags.join(',')}">
            ${tags.map((t) => `<a class="tag" href="/tag/${t}/page/1/">${t}</a>`).join('\n            ')}
        </div>
    </div>
`;
}

export function quotesPage(): string {
  const rng = new Prng(10_000);
  const quotes: string[] = [];
  for (let i = 0; i < 10; i++) quotes.push(quote(rng));
  const topTags = rng
    .sample(TAGS, 10)
    .map(
      (t, i) => `            <span class="tag-item">
            <a class="tag" style="font-size: ${(28 - i * 1.7).toFixed(1)}px" href="/tag/${t}/">${t}</a>
            </span>`,
    )
    .join('\n');
  const books = Array.from({ length: 4 }, () => {
    const name = title(rng);
    return `            <li class="book"><a href="/catalogue/${slug(name)}/">${escapeHtml(name)}</a> <span class="price">${price(rng)}</span></li>`;
  }).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
    <meta charset="UTF-8">
    <title>Quotes to Scrape</title>
    <meta name="description" content="A collection of quotes &mdash; love, life, books &amp; humour, tagged and attributed.">
    <meta name="keywords" content="quotes, scraping, tags">
    <link rel="stylesheet" href="/static/bootstrap.min.css">
    <link rel="stylesheet" href="/static/main.css">
    <link rel="icon" href="/static/favicon.ico">
    <script src="/static/jquery.min.js"></script>
    <script>
      // a < b && c > d: raw text, not markup
      var pageConfig = { page: 1, perPage: 10, next: "/page/2/" };
      if (pageConfig.page < 2 && window.console) { console.log("<p>not a tag</p>"); }
    </script>
    <style>
      .quote { border: 1px solid #333; border-radius: 5px; padding: 10px; margin-bottom: 30px; }
      .tags-box .tag-item > a { color: #017; } /* a > b in a style block */
    </style>
</head>
<body>
    <div class="container">
        <div class="row header-box">
            <div class="col-md-8">
                <h1>
                    <a href="/" style="text-decoration: none">Quotes to Scrape</a>
                </h1>
            </div>
            <div class="col-md-4">
                <p>
                    <a href="/login">Login</a>
                </p>
            </div>
        </div>
        <ul class="nav">
            <li class="active"><a href="/">Home</a></li>
            <li><a href="/random">Random</a></li>
            <li><a href="/tableful/">Tableful</a></li>
            <li><a href="/js/">JavaScript</a></li>
            <li><a href="/scroll">Infinite scroll</a></li>
        </ul>
<!-- quotes: 10 per page -->
<div class="row">
    <div class="col-md-8">
${quotes.join('')}
    <nav>
        <ul class="pager">
            <li class="next">
                <a href="/page/2/">Next <span aria-hidden="true">&rarr;</span></a>
            </li>
        </ul>
    </nav>
    </div>
    <div class="col-md-4 tags-box">
        <h2>Top Ten tags</h2>
${topTags}
        <h2>Books by these authors</h2>
        <ul class="books">
${books}
        </ul>
    </div>
</div>
    </div>
    <footer class="footer">
        <div class="container">
            <p class="text-muted">
                Quotes by: <a href="https://www.goodreads.com/quotes">GoodReads.com</a>
            </p>
            <p class="copyright">
                Made with <span class='zyte'>&hearts;</span> by <a class="zyte" href="https://www.zyte.com">Zyte</a> &copy; 2024&nbsp;&middot;&nbsp;All rights reserved
            </p>
        </div>
    </footer>
</body>
</html>
`;
}
