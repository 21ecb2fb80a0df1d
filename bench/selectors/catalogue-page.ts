/**
 * The ~100 KB saved page (pages/page-100k.html): a long shop category page
 * of the kind that makes parsing, not request handling, the cost — a mega
 * menu, a search form and a filter form, JSON-LD and analytics scripts,
 * comments, a grid of products and a big specification table.
 */

import { CATEGORIES, Prng, escapeHtml, personName, price, sentence, sentences, slug, title } from './text-source.js';

const PRODUCTS = 30;
const TABLE_ROWS = 175;
const BRANDS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay', 'Soylent', 'Stark', 'Wayne', 'Tyrell', 'Cyberdyne', 'Wonka'];

function megaMenu(rng: Prng): string {
  const groups = CATEGORIES.slice(0, 8).map((category) => {
    const items = rng
      .sample(CATEGORIES, 8)
      .map((sub) => `          <li><a href="/catalogue/category/${slug(category)}/${slug(sub)}/">${escapeHtml(sub)}</a></li>`)
      .join('\n');
    return `      <li class="menu-item has-children">
        <a href="/catalogue/category/${slug(category)}/">${escapeHtml(category)}</a>
        <ul class="submenu">
${items}
        </ul>
      </li>`;
  });
  return `  <nav class="main-menu" role="navigation">
    <ul>
${groups.join('\n')}
    </ul>
  </nav>`;
}

function filterForm(rng: Prng): string {
  const brands = BRANDS.map(
    (b, i) =>
      `      <label><input type="checkbox" name="brand" value="${slug(b)}"${i % 3 === 0 ? ' checked' : ''}> ${b}</label>`,
  ).join('\n');
  const options = ['relevance', 'price-asc', 'price-desc', 'rating', 'newest']
    .map((o) => `        <option value="${o}"${o === 'price-asc' ? ' selected' : ''}>${o.replace('-', ' ')}</option>`)
    .join('\n');
  return `  <form id="filters" class="filters" action="/catalogue/" method="get">
    <fieldset>
      <legend>Brand</legend>
${brands}
    </fieldset>
    <fieldset>
      <legend>Price</legend>
      <input type="number" name="min_price" value="${rng.int(0, 10)}"> &ndash; <input type="number" name="max_price" value="${rng.int(50, 100)}">
      <label><input type="radio" name="stock" value="all"> All</label>
      <label><input type="radio" name="stock" value="in" checked> In stock only</label>
      <select name="sort">
${options}
      </select>
      <button type="submit" class="btn">Apply filters</button>
    </fieldset>
  </form>`;
}

function product(rng: Prng, id: number): string {
  const name = title(rng);
  const rating = rng.pick(['One', 'Two', 'Three', 'Four', 'Five']);
  const stock = rng.chance(0.75);
  return `    <article class="product_pod" data-sku="SKU-${String(id).padStart(5, '0')}">
      <div class="image_container">
        <a href="/catalogue/${slug(name)}_${id}/index.html"><img src="/media/cache/${id.toString(16)}/${slug(name)}.jpg" alt="${escapeHtml(name)}" class="thumbnail"></a>
      </div>
      <p class="star-rating ${rating}"><i class="icon-star"></i><i class="icon-star"></i></p>
      <h3><a href="/catalogue/${slug(name)}_${id}/index.html" title="${escapeHtml(name)}">${escapeHtml(name.length > 18 ? name.slice(0, 15) + '...' : name)}</a></h3>
      <div class="product-description"><p>${escapeHtml(sentence(rng))} <em>${escapeHtml(sentence(rng))}</em></p><p>By <strong>${escapeHtml(personName(rng))}</strong>.</p></div>
      <div class="product_price">
        <p class="price_color">${price(rng)}</p>
        <p class="instock availability"><i class="icon-${stock ? 'ok' : 'remove'}"></i> ${stock ? 'In stock' : 'Out of stock'}</p>
        <form><button type="submit" class="btn btn-primary btn-block" data-loading-text="Adding...">Add to basket</button></form>
      </div>
    </article>`;
}

function specTable(rng: Prng): string {
  const rows: string[] = [];
  for (let i = 1; i <= TABLE_ROWS; i++) {
    if (i % 25 === 1) rows.push(`      <!-- rows ${i}-${i + 24} -->`);
    const stock = rng.chance(0.7);
    rows.push(`      <tr class="${i % 2 ? 'odd' : 'even'}">
        <td class="sku">SKU-${String(i).padStart(5, '0')}</td>
        <td>${escapeHtml(title(rng))}</td>
        <td><a href="/brand/${slug(rng.pick(BRANDS))}/">${rng.pick(BRANDS)}</a></td>
        <td class="price">${price(rng)}</td>
        <td class="stock">${stock ? `In stock (${rng.int(1, 40)} available)` : 'Out of stock'}</td>
        <td class="qty">${rng.int(0, 40)}</td>
      </tr>`);
  }
  return `  <table id="specs" class="table table-striped">
    <thead>
      <tr><th>SKU</th><th>Name</th><th>Brand</th><th>Price</th><th>Availability</th><th>Qty</th></tr>
    </thead>
    <tbody>
${rows.join('\n')}
    </tbody>
  </table>`;
}

function footer(rng: Prng): string {
  const columns = ['Shop', 'Help', 'Company', 'Community'].map((heading) => {
    const links = Array.from({ length: 8 }, () => {
      const text = title(rng);
      return `        <li><a href="/${slug(heading)}/${slug(text)}/">${escapeHtml(text)}</a></li>`;
    }).join('\n');
    return `    <div class="footer-column">
      <h4>${heading}</h4>
      <ul>
${links}
      </ul>
    </div>`;
  });
  return `<footer class="page-footer">
${columns.join('\n')}
  <p class="legal">&copy; 2024 Books &amp; Things Ltd &middot; VAT GB 123&nbsp;4567&nbsp;89 &middot; <a href="/terms/">Terms &amp; conditions</a></p>
</footer>`;
}

export function cataloguePage(): string {
  const rng = new Prng(100_000);
  const products: string[] = [];
  for (let i = 1; i <= PRODUCTS; i++) products.push(product(rng, i));
  const reviews = Array.from(
    { length: 12 },
    () => `    <blockquote class="review"><p>${escapeHtml(sentences(rng, 3))}</p><footer>&mdash; <cite>${escapeHtml(personName(rng))}</cite></footer></blockquote>`,
  ).join('\n');
  const jsonLd = JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    itemListElement: Array.from({ length: 8 }, (_, i) => ({ '@type': 'ListItem', position: i + 1, url: `/catalogue/item_${i + 1}/` })),
  });
  return `<!DOCTYPE html>
<!--[if lt IE 7]> <html lang="en-us" class="no-js lt-ie9 lt-ie8 lt-ie7"> <![endif]-->
<html lang="en-us" class="no-js">
<head>
  <meta charset="utf-8">
  <title>
    Fiction | Books &amp; Things
  </title>
  <meta http-equiv="content-type" content="text/html; charset=UTF-8">
  <meta name="description" content="Fiction at Books &amp; Things: ${PRODUCTS} titles on this page, free delivery over &pound;25.">
  <meta name="viewport" content="width=device-width">
  <meta property="og:title" content="Fiction | Books &amp; Things">
  <meta property="og:type" content="website">
  <link rel="canonical" href="https://shop.example.com/catalogue/category/fiction/">
  <link rel="stylesheet" type="text/css" href="/static/css/styles.css">
  <link rel="stylesheet" type="text/css" href="/static/css/datetimepicker.css">
  <link rel="shortcut icon" href="/static/favicon.ico">
  <script type="application/ld+json">${jsonLd}</script>
  <script>
    (function (w, d) { var s = d.createElement('script'); s.async = true; s.src = '/static/analytics.js';
      if (w.location.search.indexOf('debug') < 0 && d.cookie.length > 0) { d.head.appendChild(s); } })(window, document);
  </script>
  <style>
    .product_pod { min-height: 380px; } .star-rating.Five > i { color: #e6ce31; }
  </style>
</head>
<body id="default" class="default">
<header class="header container-fluid">
  <div class="page_inner">
    <div class="row">
      <div class="col-sm-8 h1"><a href="/">Books &amp; Things</a></div>
      <form id="search" class="navbar-form" method="get" action="/search/">
        <input type="search" name="q" placeholder="Search books&hellip;" value="">
        <select name="scope"><option value="all" selected>All</option><option value="titles">Titles</option><option value="authors">Authors</option></select>
        <input type="hidden" name="csrfmiddlewaretoken" value="${Math.floor(rng.next() * 1e15).toString(36)}">
        <button type="submit">Search</button>
      </form>
    </div>
  </div>
${megaMenu(rng)}
</header>
<!-- main content -->
<div class="container-fluid page">
  <ol class="breadcrumb">
    <li><a href="/">Home</a></li>
    <li><a href="/catalogue/">Books</a></li>
    <li class="active">Fiction</li>
  </ol>
  <div class="page-header action"><h1>Fiction</h1></div>
  <aside class="sidebar">
${filterForm(rng)}
  </aside>
  <form class="form-horizontal" method="get">
    <strong>${PRODUCTS * 10}</strong> results - showing <strong>1</strong> to <strong>${PRODUCTS}</strong>.
  </form>
  <section class="products">
${products.join('\n')}
  </section>
  <!-- comparison table -->
${specTable(rng)}
  <section class="reviews">
    <h2>What readers say</h2>
${reviews}
  </section>
  <ul class="pager">
    <li class="current">Page 1 of 10</li>
    <li class="next"><a href="page-2.html">next</a></li>
  </ul>
</div>
${footer(rng)}
<script>
  document.querySelectorAll('.product_pod form').forEach(function (f) { f.addEventListener('submit', function (e) { e.preventDefault(); }); });
</script>
</body>
</html>
`;
}
