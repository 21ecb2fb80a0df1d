/**
 * A local site whose content is written by JavaScript, for the browser
 * tests: the quotes of /quotes/N are inserted by a script (a plain download
 * has none), and a "More" button loads two more from a JSON endpoint on a
 * click; /delayed inserts its quote after 300 ms; / and /static/ are plain
 * HTML. /echo shows what the browser sent (method, user agent, body,
 * cookies); /slow holds its answer for a while.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startSite, type TestSite } from './site-server.js';

export const JS_QUOTES: Record<number, Array<[string, string]>> = {
  1: [['The world as we have created it is a process of our thinking.', 'Albert Einstein'], ['It is our choices that show what we truly are.', 'J.K. Rowling']],
  2: [['There are only two ways to live your life.', 'Albert Einstein'], ['A day without sunshine is like, you know, night.', 'Steve Martin']],
};
export const MORE_QUOTES: Record<number, Array<[string, string]>> = {
  1: [['Try not to become a man of success.', 'Albert Einstein']],
  2: [['It is better to be hated for what you are.', 'Andre Gide']],
};
export const STATIC_QUOTES: Array<[string, string]> = [['Imperfection is beauty.', 'Marilyn Monroe']];

const quoteHtml = ([text, author]: [string, string], extra = ''): string =>
  `<div class="quote${extra}"><span class="text">${text}</span><small class="author">${author}</small></div>`;

function page(res: ServerResponse, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...headers }).end(`<html><head><title>Quotes</title></head><body>${body}</body></html>`);
}

function jsPage(n: number): string {
  return `<div id="quotes"></div><button class="more">More</button><img src="/img.png">
<script>
for (const [text, author] of ${JSON.stringify(JS_QUOTES[n])}) {
  document.getElementById('quotes').insertAdjacentHTML('beforeend', ${JSON.stringify(quoteHtml(['TEXT', 'AUTHOR']))}.replace('TEXT', text).replace('AUTHOR', author));
}
document.querySelector('button.more').addEventListener('click', async () => {
  const more = await (await fetch('/api/more/${n}')).json();
  for (const [text, author] of more) {
    document.getElementById('quotes').insertAdjacentHTML('beforeend', ${JSON.stringify(quoteHtml(['TEXT', 'AUTHOR'], ' more'))}.replace('TEXT', text).replace('AUTHOR', author));
  }
});
</script>`;
}

export interface JsSite extends TestSite {
  /** How long /slow waits before answering, in ms. */
  slowMs: number;
}

export async function startJsSite(): Promise<JsSite> {
  let site: JsSite;
  const body = (): string => site.requests.at(-1)!.body;
  const base = await startSite({
    '/': (_req, res) => page(res, '<a href="/quotes/1">1</a> <a href="/quotes/2">2</a> <a href="/static/">static</a>'),
    '/quotes/1': (_req, res) => page(res, jsPage(1)),
    '/quotes/2': (_req, res) => page(res, jsPage(2)),
    '/api/more/1': (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(MORE_QUOTES[1])),
    '/api/more/2': (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(MORE_QUOTES[2])),
    '/static/': (_req, res) => page(res, STATIC_QUOTES.map((quote) => quoteHtml(quote)).join('')),
    '/delayed': (_req, res) => page(res, `<div id="quotes"></div><script>setTimeout(() => { document.getElementById('quotes').innerHTML = ${JSON.stringify(quoteHtml(STATIC_QUOTES[0]!))}; }, 300);</script>`),
    '/img.png': (_req, res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.alloc(64)),
    '/echo': (req: IncomingMessage, res) => {
      page(res, `<p id="method">${req.method}</p><p id="ua">${req.headers['user-agent'] ?? ''}</p><p id="body">${body()}</p><p id="cookie">${req.headers.cookie ?? ''}</p><p id="referer">${req.headers.referer ?? ''}</p>`, { 'Set-Cookie': 'echoed=yes; Path=/' });
    },
    '/robots.txt': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n'),
    '/private/page': (_req, res) => page(res, '<p>private</p>'),
    '/set-cookie': (_req, res) => page(res, '<p>set</p>', { 'Set-Cookie': 'session=abc123; Path=/' }),
    '/slow': (_req, res) => {
      const timer = setTimeout(() => page(res, `<p class="slow">done</p>`), site.slowMs);
      res.on('close', () => clearTimeout(timer));
    },
  });
  site = Object.assign(base, { slowMs: 1000 });
  return site;
}
