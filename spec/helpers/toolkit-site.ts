/**
 * A local site for the spider toolkit's ported spiders (spec/toolkit): a
 * login form with a CSRF token and a session cookie guarding the account
 * pages, a JSON API that wants JSON bodies and a token header, and product
 * pages for an ItemLoader. The same site serves the Scrapy originals when
 * their items are recorded (spec/toolkit/fixtures/record-ported.py runs
 * serve-toolkit-site.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startSite, type TestSite } from './site-server.js';

const TOKEN = 'csrf-7c1e';
const SESSION = 'session=ann-1d4b';

const PRODUCTS = [
  { name: '  Red   shoe ', price: '$ 12.50', tags: ['red', ' ', 'shoe'], about: ['Light.', 'Waterproof.'], stock: 4 },
  { name: 'Blue\nhat', price: '$ 8', tags: ['blue'], about: ['Wool.'], stock: 0 },
  { name: 'Green scarf', price: '$ 21.99 ', tags: [], about: [], stock: 12 },
];

function html(res: ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<html><head><title>Shop</title></head><body>${body}</body></html>`);
}

function json(res: ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}

function loggedIn(req: IncomingMessage): boolean {
  return (req.headers.cookie ?? '').split(/;\s*/).includes(SESSION);
}

export async function startToolkitSite(): Promise<TestSite> {
  let site: TestSite;
  const body = (): string => site.requests.at(-1)!.body;
  site = await startSite({
    '/login': (req, res) => {
      if (req.method === 'GET') {
        html(res, `<form id="search" action="/search"><input name="q"></form>
<form id="login" action="/login" method="post">
  <input type="hidden" name="csrf_token" value="${TOKEN}">
  <input name="username"> <input type="password" name="password">
  <input type="checkbox" name="remember" value="yes" checked>
  <select name="lang"><option value="en">English</option><option value="de" selected>Deutsch</option></select>
  <input type="submit" name="action" value="Log in"> <input type="submit" name="action" value="Cancel">
</form>`);
        return;
      }
      const fields = new URLSearchParams(body());
      if (fields.get('csrf_token') !== TOKEN || fields.get('username') !== 'ann' || fields.get('password') !== 's3cret' || fields.get('action') !== 'Log in') {
        html(res, '<p class="error">Bad login</p>', 403);
        return;
      }
      res.writeHead(302, { Location: `/account?lang=${fields.get('lang')}`, 'Set-Cookie': `${SESSION}; Path=/; HttpOnly` }).end();
    },
    '/account': (req, res) => {
      if (!loggedIn(req)) return html(res, '<p>Please log in</p>');
      const lang = new URL(req.url!, 'http://x').searchParams.get('lang');
      html(res, `<h1 class="user">ann</h1><p class="lang">${lang}</p><ul><li><a href="/orders/1">Order 1</a></li><li><a href="/orders/2">Order 2</a></li></ul>`);
    },
    '/orders/1': (req, res) => html(res, loggedIn(req) ? '<h2>Order 1</h2><span class="total">$ 20.00</span>' : '<p>Please log in</p>'),
    '/orders/2': (req, res) => html(res, loggedIn(req) ? '<h2>Order 2</h2><span class="total">$ 7.25</span>' : '<p>Please log in</p>'),
    '/api/items': (req, res) => {
      if (req.method !== 'POST' || !/^application\/json/.test(req.headers['content-type'] ?? '')) return json(res, { error: 'POST JSON' }, 415);
      const { page } = JSON.parse(body()) as { page: number };
      const items = [1, 2].map((i) => ({ id: (page - 1) * 2 + i, name: `Item ${(page - 1) * 2 + i}` }));
      json(res, { items, next: page < 2 ? page + 1 : null });
    },
    '/api/item/3': (req, res) => {
      if (req.headers['x-token'] !== 'abc' || req.headers['accept'] !== 'application/json') return json(res, { error: 'token' }, 401);
      json(res, { id: 3, detail: { colour: 'teal', sizes: [38, 39] } });
    },
    '/products/': (_req, res) => html(res, PRODUCTS.map((_, i) => `<a class="product" href="/products/${i + 1}">P${i + 1}</a>`).join(' ')),
    ...Object.fromEntries(PRODUCTS.map((product, i) => [`/products/${i + 1}`, (_req: IncomingMessage, res: ServerResponse) => html(res, `<div class="product">
<h1>${product.name}</h1><span class="price">${product.price}</span>
<ul>${product.tags.map((tag) => `<li class="tag">${tag}</li>`).join('')}</ul>
${product.about.map((text) => `<p class="about">${text}</p>`).join('')}
<script type="application/json" id="data">${JSON.stringify({ sku: `SKU-${i + 1}`, stock: { count: product.stock } })}</script>
</div>`)])),
  });
  return site;
}
