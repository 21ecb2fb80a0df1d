/**
 * The guarded site: a shop that pushes back the way real sites do, for
 * spec/blocking/ and `npm run bench:blocking`. A node:http server on
 * 127.0.0.1 (a free port) that tells clients apart by their address
 * (`req.socket.remoteAddress`: 127.0.0.1, 127.0.0.2, … — client-proxy.ts
 * makes each proxy a different one). What it does, in the order a request
 * meets it:
 *
 * 1. Quota per client address: more than `quota` requests within a sliding
 *    `windowMs` → 429 with `Retry-After`. A client that asks again before
 *    that time is up (after `graceMs`, for requests already on their way) is
 *    banned: 403 to everything for `banMs`.
 * 2. Session cookie: a content page asked for without a valid `sid` (one
 *    this site set, for this client address) → 302 to /challenge?next=…,
 *    which sets `sid` and redirects back.
 * 3. Captcha: a `sid` that has already fetched `captchaAfter` pages gets a
 *    page with status 200 and `<div class="captcha">` instead of content.
 * 4. Content: /list/<n> (the product links are written by /static/list-<n>.js,
 *    so only a browser sees them; `a.next` to the next list is plain HTML),
 *    /product/<id> (plain HTML), and a login-only area: POST /login (form:
 *    user, password) gives a logged-in sid and redirects to /account/1;
 *    /account/<n> for that sid only (others: 302 to /login).
 *
 * /static/* is served like a CDN: no quota, no cookie; every page links
 * /static/shop.css, so its fetches count the pages a browser rendered.
 * GET /__stats answers the counters as JSON (`GuardedStats`), GET /__reset
 * zeroes them (and forgets sessions, quotas and bans).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GuardedOptions {
  /** Listing pages /list/1 … /list/<lists>. */
  lists: number;
  /** Products per listing page. */
  perList: number;
  /** Account pages /account/1 … /account/<accounts>, `ordersPerAccount` orders each. */
  accounts: number;
  ordersPerAccount: number;
  /** Requests a client may make within `windowMs` before a 429. */
  quota: number;
  windowMs: number;
  /** The Retry-After of a 429, in seconds. */
  retryAfter: number;
  /** After a 429, requests within this many ms get 429 too instead of a ban (they were already sent). */
  graceMs: number;
  banMs: number;
  /** Pages one sid may fetch before it gets captchas. */
  captchaAfter: number;
  user: string;
  password: string;
}

export const GUARDED_DEFAULTS: GuardedOptions = {
  lists: 4, perList: 5, accounts: 3, ordersPerAccount: 2,
  quota: 20, windowMs: 10_000, retryAfter: 2, graceMs: 300, banMs: 10 * 60_000,
  captchaAfter: 8, user: 'reader', password: 'secret',
};

export interface GuardedStats {
  /** Requests per client address (static files and /__ paths not counted). */
  requestsByClient: Record<string, number>;
  requests: number;
  /** 429s sent, bans imposed, 403s sent to banned clients. */
  limited: number;
  bans: number;
  forbidden: number;
  /** Challenge redirects (302 to /challenge) and challenges answered (sid set). */
  challengeRedirects: number;
  challenges: number;
  captchas: number;
  /** Listing pages' HTML served, and their scripts (/static/list-<n>.js: fetched only by a browser). */
  listingPages: number;
  listingScripts: number;
  /** Pages rendered by a browser: fetches of /static/shop.css, which every page links, by the first segment of their Referer's path ('list', 'product', …). */
  renderedByKind: Record<string, number>;
  productPages: number;
  accountPages: number;
  logins: number;
  failedLogins: number;
  loginRedirects: number;
}

/** What a complete crawl finds: every product and every order, once. */
export interface Catalogue {
  products: Array<{ id: string; name: string; price: string }>;
  orders: Array<{ id: string; account: number; total: string }>;
}

export function catalogue(options: Partial<GuardedOptions> = {}): Catalogue {
  const o = { ...GUARDED_DEFAULTS, ...options };
  const products = Array.from({ length: o.lists * o.perList }, (_, i) => ({
    id: `p${i + 1}`, name: `Product ${i + 1}`, price: `${(i * 37) % 90 + 10}.99`,
  }));
  const orders = Array.from({ length: o.accounts * o.ordersPerAccount }, (_, i) => ({
    id: `o${i + 1}`, account: Math.floor(i / o.ordersPerAccount) + 1, total: `${(i * 13) % 200 + 5}.50`,
  }));
  return { products, orders };
}

export interface GuardedSite {
  url(path: string): string;
  readonly origin: string;
  stats(): GuardedStats;
  reset(): void;
  close(): Promise<void>;
}

interface Client { times: number[]; retryUntil: number; limitedAt: number; bannedUntil: number }
interface Sid { client: string; pages: number; loggedIn: boolean }

// Every page links /static/shop.css, which only a browser fetches (no-store: once per page rendered).
const page = (title: string, body: string): string =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="/static/shop.css"></head><body>${body}</body></html>`;

function zeroStats(): GuardedStats {
  return {
    requestsByClient: {}, requests: 0, limited: 0, bans: 0, forbidden: 0, challengeRedirects: 0, challenges: 0,
    captchas: 0, listingPages: 0, listingScripts: 0, renderedByKind: {}, productPages: 0, accountPages: 0, logins: 0, failedLogins: 0,
    loginRedirects: 0,
  };
}

export async function startGuardedSite(options: Partial<GuardedOptions> = {}, host = '127.0.0.1'): Promise<GuardedSite> {
  const o = { ...GUARDED_DEFAULTS, ...options };
  const { products, orders } = catalogue(o);
  let stats = zeroStats();
  let clients = new Map<string, Client>();
  let sids = new Map<string, Sid>();

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string | string[]> = {}): void => {
    res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', ...headers }).end(body);
  };
  const redirect = (res: ServerResponse, to: string, headers: Record<string, string> = {}): void =>
    send(res, 302, page('Moved', `<a href="${to}">${to}</a>`), { Location: to, ...headers });
  const newSid = (client: string, loggedIn: boolean): string => {
    const id = randomBytes(12).toString('hex');
    sids.set(id, { client, pages: 0, loggedIn });
    return `sid=${id}; Path=/; HttpOnly`;
  };

  /** Step 1: true when the request may go on; otherwise it has been answered (429 or 403). */
  function withinQuota(address: string, res: ServerResponse): boolean {
    const now = Date.now();
    const client = clients.get(address) ?? { times: [], retryUntil: 0, limitedAt: 0, bannedUntil: 0 };
    clients.set(address, client);
    stats.requests++;
    stats.requestsByClient[address] = (stats.requestsByClient[address] ?? 0) + 1;
    if (now < client.bannedUntil) {
      stats.forbidden++;
      send(res, 403, page('Forbidden', '<p>Your address is banned.</p>'));
      return false;
    }
    const retryAfter = String(Math.max(1, Math.ceil((client.retryUntil - now) / 1000)));
    if (now < client.retryUntil) {
      if (now - client.limitedAt <= o.graceMs) {
        stats.limited++;
        send(res, 429, page('Too many requests', '<p>Slow down.</p>'), { 'Retry-After': retryAfter });
      } else {
        client.bannedUntil = now + o.banMs;
        stats.bans++;
        stats.forbidden++;
        send(res, 403, page('Forbidden', '<p>You ignored Retry-After: banned.</p>'));
      }
      return false;
    }
    client.times = client.times.filter((t) => t > now - o.windowMs);
    client.times.push(now);
    if (client.times.length > o.quota) {
      client.retryUntil = now + o.retryAfter * 1000;
      client.limitedAt = now;
      stats.limited++;
      send(res, 429, page('Too many requests', '<p>Slow down.</p>'), { 'Retry-After': String(o.retryAfter) });
      return false;
    }
    return true;
  }

  function sidOf(req: IncomingMessage, address: string): Sid | undefined {
    const id = /(?:^|;\s*)sid=([0-9a-f]+)/.exec(req.headers.cookie ?? '')?.[1];
    const sid = id === undefined ? undefined : sids.get(id);
    return sid?.client === address ? sid : undefined;
  }

  /** Steps 2–3: the session this content request is served in, or undefined when it has been answered. */
  function session(req: IncomingMessage, res: ServerResponse, address: string, path: string, login: boolean): Sid | undefined {
    const sid = sidOf(req, address);
    if (sid === undefined || (login && !sid.loggedIn)) {
      if (login) {
        stats.loginRedirects++;
        redirect(res, '/login');
      } else {
        stats.challengeRedirects++;
        redirect(res, `/challenge?next=${encodeURIComponent(path)}`);
      }
      return undefined;
    }
    if (++sid.pages > o.captchaAfter) {
      stats.captchas++;
      send(res, 200, page('Are you human?', '<div class="captcha"><p>Please prove you are human.</p><img src="/static/captcha.png"></div>'));
      return undefined;
    }
    return sid;
  }

  function content(req: IncomingMessage, res: ServerResponse, address: string, url: URL, body: string): void {
    const path = url.pathname;
    let m: RegExpExecArray | null;
    if (path === '/') {
      if (session(req, res, address, path, false)) send(res, 200, page('Shop', '<a href="/list/1">Products</a> <a href="/login">Log in</a>'));
    } else if (path === '/challenge') {
      const next = url.searchParams.get('next') ?? '/';
      stats.challenges++;
      redirect(res, next.startsWith('/') && !next.startsWith('//') ? next : '/', { 'Set-Cookie': newSid(address, false) });
    } else if ((m = /^\/list\/(\d+)$/.exec(path)) && +m[1]! >= 1 && +m[1]! <= o.lists) {
      const n = +m[1]!;
      if (!session(req, res, address, path, false)) return;
      stats.listingPages++;
      const next = n < o.lists ? `<a class="next" href="/list/${n + 1}">Next</a>` : '';
      send(res, 200, page(`Products, page ${n}`, `<h1>Products, page ${n}</h1><ul id="products"></ul><script src="/static/list-${n}.js"></script>${next}`));
    } else if ((m = /^\/product\/(p\d+)$/.exec(path)) && products.some((p) => p.id === m![1])) {
      const product = products.find((p) => p.id === m![1])!;
      if (!session(req, res, address, path, false)) return;
      stats.productPages++;
      send(res, 200, page(product.name, `<h1 class="name">${product.name}</h1><p>SKU <span class="sku">${product.id}</span></p><p class="price">${product.price}</p>`));
    } else if (path === '/login' && req.method === 'POST') {
      const form = new URLSearchParams(body);
      if (form.get('user') === o.user && form.get('password') === o.password) {
        stats.logins++;
        redirect(res, '/account/1', { 'Set-Cookie': newSid(address, true) });
      } else {
        stats.failedLogins++;
        send(res, 200, page('Log in', '<p class="error">Wrong user or password.</p>'));
      }
    } else if (path === '/login') {
      send(res, 200, page('Log in', '<form method="post" action="/login"><input name="user"><input name="password" type="password"><button>Log in</button></form>'));
    } else if ((m = /^\/account\/(\d+)$/.exec(path)) && +m[1]! >= 1 && +m[1]! <= o.accounts) {
      const n = +m[1]!;
      if (!session(req, res, address, path, true)) return;
      stats.accountPages++;
      const mine = orders.filter((order) => order.account === n);
      const list = mine.map((order) => `<li class="order" data-id="${order.id}">Order ${order.id}: <span class="total">${order.total}</span></li>`).join('');
      const next = n < o.accounts ? `<a class="next" href="/account/${n + 1}">Next</a>` : '';
      send(res, 200, page(`Your orders, page ${n}`, `<ul>${list}</ul>${next}`));
    } else {
      send(res, 404, page('Not found', '<p>Not found.</p>'));
    }
  }

  function staticFile(req: IncomingMessage, res: ServerResponse, path: string): void {
    if (path === '/static/shop.css') {
      const referer = req.headers.referer;
      const kind = referer === undefined ? '?' : (new URL(referer).pathname.split('/')[1] ?? '');
      stats.renderedByKind[kind] = (stats.renderedByKind[kind] ?? 0) + 1;
      res.writeHead(200, { 'Content-Type': 'text/css', 'Cache-Control': 'no-store' }).end('body { font-family: sans-serif; }\n');
      return;
    }
    const n = /^\/static\/list-(\d+)\.js$/.exec(path)?.[1];
    if (n === undefined || +n < 1 || +n > o.lists) return send(res, 404, 'not found', { 'Content-Type': 'text/plain' });
    stats.listingScripts++;
    const ids = products.slice((+n - 1) * o.perList, +n * o.perList).map((p) => p.id);
    res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(
      `document.getElementById('products').innerHTML = ${JSON.stringify(ids)}` +
        `.map(function (id) { return '<li><a class="product" href="/product/' + id + '">' + id + '</a></li>'; }).join('');\n`,
    );
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://guarded');
      const address = req.socket.remoteAddress ?? '?';
      if (url.pathname === '/__stats') return send(res, 200, JSON.stringify(stats), { 'Content-Type': 'application/json' });
      if (url.pathname === '/__reset') {
        stats = zeroStats();
        clients = new Map();
        sids = new Map();
        return send(res, 200, '{}', { 'Content-Type': 'application/json' });
      }
      if (url.pathname.startsWith('/static/')) return staticFile(req, res, url.pathname);
      if (withinQuota(address, res)) content(req, res, address, url, Buffer.concat(chunks).toString());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => origin + path,
    stats: () => structuredClone(stats),
    reset() {
      stats = zeroStats();
      clients = new Map();
      sids = new Map();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
