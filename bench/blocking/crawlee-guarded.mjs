/**
 * Crawlee 3.18 on the guarded site (bench/blocking/run.ts starts it as a
 * child process, so its CPU time is its own):
 *
 *   node bench/blocking/crawlee-guarded.mjs --site http://127.0.0.1:<port> --proxies <url>,<url>… \
 *     --output items.jsonl --rate <requests per minute> --max-usage <requests per session> --chromium /usr/bin/chromium
 *
 * Configured as a Crawlee user who knows the site would: a PlaywrightCrawler
 * for the listing pages (their product links are written by a script), a
 * CheerioCrawler for the product pages, and a second CheerioCrawler with a
 * one-session pool for the login and the account pages (Crawlee 3 has no way
 * to pin a request to a session, so the logged-in cookie lives in a pool of
 * one). All three use a ProxyConfiguration over the same client proxies as
 * seine, the SessionPool with cookies per session and `maxUsageCount` =
 * --max-usage, `maxRequestsPerMinute` = --rate, and the SessionPool's default blocked status codes (401, 403, 429:
 * the session is retired and the request retried in another). A captcha page
 * (status 200) is seen in the handler: it retires the session and throws, so
 * Crawlee retries the request. Crawlee does not read Retry-After.
 *
 * The phases run one after another (listings → products → account); it
 * writes one JSON line per item and, at the end, one line of Crawlee's own
 * counts to stdout.
 */
import { createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    site: { type: 'string' }, proxies: { type: 'string' }, output: { type: 'string' }, rate: { type: 'string' },
    'max-usage': { type: 'string' }, chromium: { type: 'string' }, user: { type: 'string', default: 'reader' },
    password: { type: 'string', default: 'secret' },
    adaptive: { type: 'boolean', default: false },
  },
});
if (!values.site || !values.proxies || !values.output || !values.rate || !values['max-usage'] || !values.chromium) {
  console.error('usage: node bench/blocking/crawlee-guarded.mjs --site URL --proxies URL,URL --output FILE --rate N --max-usage N --chromium PATH');
  process.exit(2);
}

const load = createRequire(new URL('../crawl/.peers/crawlee/package.json', import.meta.url));
const { CheerioCrawler, ProxyConfiguration, Configuration, Request, log } = load('@crawlee/cheerio');
const { PlaywrightCrawler, AdaptivePlaywrightCrawler } = load('@crawlee/playwright');
const { chromium } = load('playwright');

log.setLevel(log.LEVELS.WARNING);
const site = values.site;
const proxyUrls = values.proxies.split(',');
const rate = Number(values.rate);
const maxUsage = Number(values['max-usage']);
const feed = createWriteStream(values.output);
const counts = { requestsFinished: 0, requestsFailed: 0, retries: 0, rendered: 0 };

/** What every phase shares: proxies, sessions with cookies, the rate, no storage on disk. */
const common = (poolSize) => ({
  proxyConfiguration: new ProxyConfiguration({ proxyUrls }),
  useSessionPool: true,
  persistCookiesPerSession: true,
  sessionPoolOptions: { maxPoolSize: poolSize, sessionOptions: { maxUsageCount: maxUsage } },
  // A budget per sliding minute: the minute's requests may all go at its start. sameDomainDelaySecs would space them
  // evenly, but it re-enqueues each delayed request and stalled here (41 items in 10 minutes, see docs/blocking.md).
  maxRequestsPerMinute: rate,
  maxRequestRetries: 6,
  statisticsOptions: { persistenceOptions: { enable: false }, saveErrorSnapshots: false },
});
const config = () => new Configuration({ persistStorage: false, purgeOnStart: true });
const captcha = (session, seen) => {
  if (!seen) return;
  session?.retire();
  throw new Error('captcha page: session retired');
};
const tally = (crawler) => {
  const s = crawler.stats.state;
  counts.requestsFinished += s.requestsFinished;
  counts.requestsFailed += s.requestsFailed;
  counts.retries += s.requestsRetries;
};

const write = (item) => feed.write(JSON.stringify(item) + '\n');
const launchContext = { launcher: chromium, launchOptions: { executablePath: values.chromium, args: ['--no-sandbox'] } };

if (values.adaptive) {
  // 1–2. One AdaptivePlaywrightCrawler for listings and products: each page plain first unless its kind was learned
  // to need the browser; a plain result with neither an item nor a product link is retried in the browser.
  const shop = new AdaptivePlaywrightCrawler(
    {
      ...common(proxyUrls.length * 2),
      maxConcurrency: 4,
      launchContext,
      renderingTypeDetectionRatio: 0.1,
      resultChecker: (result) => result.datasetItems.length > 0 || result.enqueuedUrls.some(({ url }) => url.includes('/product/')),
      async requestHandler({ request, parseWithCheerio, enqueueLinks, pushData, session }) {
        const $ = await parseWithCheerio();
        captcha(session, $('.captcha').length > 0);
        if (request.label === 'PRODUCT') {
          await pushData({ id: $('span.sku').text(), name: $('h1.name').text(), price: $('p.price').text() });
          return;
        }
        await enqueueLinks({ selector: 'a.product', label: 'PRODUCT' });
        await enqueueLinks({ selector: 'a.next', label: 'LIST' });
      },
    },
    config(),
  );
  await shop.run([{ url: `${site}/list/1`, label: 'LIST' }]);
  tally(shop);
  for (const item of (await shop.getData()).items) write(item);
} else {
  // 1. Listings, rendered: product links come from the page's script.
  const productUrls = new Set();
  const listings = new PlaywrightCrawler(
    {
      ...common(proxyUrls.length * 2),
      maxConcurrency: 2,
      launchContext,
      async requestHandler({ page, session, enqueueLinks }) {
        counts.rendered++;
        captcha(session, (await page.$('.captcha')) !== null);
        for (const href of await page.$$eval('a.product', (links) => links.map((a) => a.href))) productUrls.add(href);
        await enqueueLinks({ selector: 'a.next' });
      },
    },
    config(),
  );
  await listings.run([`${site}/list/1`]);
  tally(listings);

  // 2. Products, plain HTML.
  const products = new CheerioCrawler(
    {
      ...common(proxyUrls.length * 2),
      maxConcurrency: 4,
      async requestHandler({ $, session }) {
        captcha(session, $('.captcha').length > 0);
        write({ id: $('span.sku').text(), name: $('h1.name').text(), price: $('p.price').text() });
      },
    },
    config(),
  );
  await products.run([...productUrls]);
  tally(products);
}

// 3. The account area: one session, so the login's cookie is on every request after it.
const account = new CheerioCrawler(
  {
    ...common(1),
    maxConcurrency: 1,
    async requestHandler({ $, session, enqueueLinks }) {
      captcha(session, $('.captcha').length > 0);
      $('li.order').each((_, li) => write({ id: $(li).attr('data-id'), total: $(li).find('span.total').text() }));
      await enqueueLinks({ selector: 'a.next' });
    },
  },
  config(),
);
await account.run([
  new Request({
    url: `${site}/login`, method: 'POST', uniqueKey: 'login',
    payload: new URLSearchParams({ user: values.user, password: values.password }).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  }),
]);
tally(account);

await new Promise((resolve) => feed.end(resolve));
process.stdout.write(JSON.stringify(counts) + '\n');
