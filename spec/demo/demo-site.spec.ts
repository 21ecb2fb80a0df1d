/**
 * The demo site over real HTTP on 127.0.0.1: what its pages hold, read with
 * the selectors the tutorial uses, and what it answers for everything else.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { Selector } from '../../src/selector/index.js';
import { DemoSiteError, QUOTES, startDemoSite, type DemoSite } from '../../src/demo/index.js';

let site: DemoSite;

beforeAll(async () => {
  site = await startDemoSite();
});

afterAll(async () => {
  await site.close();
});

async function get(path: string): Promise<{ status: number; type: string | null; location: string | null; text: string }> {
  const response = await fetch(new URL(path, site.url), { redirect: 'manual' });
  return { status: response.status, type: response.headers.get('content-type'), location: response.headers.get('location'), text: await response.text() };
}

async function page(path: string): Promise<Selector> {
  const answer = await get(path);
  expect(answer.status).toBe(200);
  return new Selector({ text: answer.text });
}

describe('startDemoSite', () => {
  it('listens on a free port of 127.0.0.1 and gives the home URL', () => {
    expect(site.url).toBe(`http://127.0.0.1:${site.port}/`);
    expect(site.port).toBeGreaterThan(0);
  });

  it('refuses a port that is in use, saying which and what to do', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await startDemoSite({ port }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DemoSiteError);
      expect(error).toMatchObject({
        code: 'SEINE_DEMO_SITE',
        message: `Cannot serve the demo site on 127.0.0.1:${port}: the port is in use (choose another with --port, or --port 0 for a free one)`,
      });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('refuses a port outside 0–65535', async () => {
    await expect(startDemoSite({ port: 70000 })).rejects.toThrow('Invalid demo site port 70000: give a whole number from 1 to 65535, or 0 for a free port');
  });
});

describe('listing pages', () => {
  it('page 1 holds ten quotes with the text, author and tags the tutorial extracts', async () => {
    const sel = await page('/page/1/');
    expect(sel.css('title::text').get()).toBe('Quotes to Scrape');
    const quotes = sel.css('div.quote');
    expect(quotes).toHaveLength(10);
    const first = quotes[0]!;
    expect(first.css('span.text::text').get()).toBe('“The secret of getting ahead is getting started.”');
    expect(first.css('small.author::text').get()).toBe('Mark Twain');
    expect(first.css('div.tags a.tag::text').getall()).toEqual(['inspirational', 'life', 'work']);
    expect(first.css('span a::attr(href)').get()).toBe('/author/Mark-Twain/');
    expect(sel.css('li.next a::attr(href)').get()).toBe('/page/2/');
    expect(sel.css('li.previous a').getall()).toEqual([]);
  });

  it('serves the home page as page 1', async () => {
    expect((await get('/')).text).toBe((await get('/page/1/')).text);
  });

  it('writes entities and curly quotes in the HTML, which selectors decode', async () => {
    const raw = (await get('/page/3/')).text;
    expect(raw).toContain('“Early to bed &amp; early to rise, makes a man healthy, wealthy &amp; wise.”');
    expect(raw).toContain('<!DOCTYPE html>');
    expect(raw).toContain('<link rel="stylesheet" href="/static/main.css">');
    const sel = new Selector({ text: raw });
    expect(sel.css('span.text::text').getall()).toContain('“Early to bed & early to rise, makes a man healthy, wealthy & wise.”');
    expect((await get('/page/8/')).text).toContain('mastery of fear &mdash; not absence of fear.”');
  });

  it('links each page to the previous and the next one, and the last has no next', async () => {
    const middle = await page('/page/5/');
    expect(middle.css('li.previous a::attr(href)').get()).toBe('/page/4/');
    expect(middle.css('li.next a::attr(href)').get()).toBe('/page/6/');
    const last = await page('/page/10/');
    expect(last.css('div.quote')).toHaveLength(10);
    expect(last.css('li.next a::attr(href)').get()).toBeNull();
    expect(last.css('li.previous a::attr(href)').get()).toBe('/page/9/');
  });

  it('holds all 100 quotes across its 10 pages, each once, in the data order', async () => {
    const texts: string[] = [];
    for (let n = 1; n <= 10; n++) texts.push(...(await page(`/page/${n}/`)).css('div.quote span.text::text').getall());
    expect(texts).toEqual(QUOTES.map((quote) => `“${quote.text}”`));
  });

  it('shows the top ten tags beside the quotes, outside div.quote', async () => {
    const sel = await page('/page/1/');
    expect(sel.css('div.tags-box a.tag::text').getall()).toEqual([
      'humor', 'inspirational', 'wisdom', 'life', 'happiness', 'work', 'change', 'time', 'virtue', 'kindness',
    ]);
    expect(sel.css('div.quote a.tag')).toHaveLength(sel.css('div.quote div.tags a.tag').length);
  });
});

describe('tag pages', () => {
  it('/tag/humor/ lists the humor quotes, ten a page, and follows on to /tag/humor/page/2/', async () => {
    const sel = await page('/tag/humor/');
    expect(sel.css('h3 a::text').get()).toBe('humor');
    expect(sel.css('div.quote')).toHaveLength(10);
    for (const quote of sel.css('div.quote')) expect(quote.css('a.tag::text').getall()).toContain('humor');
    expect(sel.css('li.next a::attr(href)').get()).toBe('/tag/humor/page/2/');
    expect((await get('/tag/humor/page/1/')).text).toBe((await get('/tag/humor/')).text);
  });

  it('ends the humor listing on page 3 with the last 2 of its 22 quotes', async () => {
    const sel = await page('/tag/humor/page/3/');
    expect(sel.css('div.quote small.author::text').getall()).toEqual(['Michel de Montaigne', 'Oscar Wilde']);
    expect(sel.css('li.next a').getall()).toEqual([]);
    expect(sel.css('li.previous a::attr(href)').get()).toBe('/tag/humor/page/2/');
  });

  it('links every tag of a quote to its tag listing', async () => {
    const sel = await page('/page/1/');
    expect(sel.css('div.quote')[1]!.css('div.tags a.tag::attr(href)').getall()).toEqual(['/tag/humor/page/1/']);
  });
});

describe('author pages', () => {
  it('the (about) link leads to the author with born date, place and description', async () => {
    const sel = await page('/author/Johann-Wolfgang-von-Goethe/');
    expect(sel.css('h3.author-title::text').get()).toBe('Johann Wolfgang von Goethe');
    expect(sel.css('span.author-born-date::text').get()).toBe('August 28, 1749');
    expect(sel.css('span.author-born-location::text').get()).toBe('in Frankfurt am Main, Germany');
    expect(sel.css('div.author-description::text').get()!.trim()).toBe('German poet, novelist and scientist, author of Faust.');
  });
});

describe('everything else', () => {
  it('has no robots.txt: 404', async () => {
    expect((await get('/robots.txt')).status).toBe(404);
  });

  it.each(['/page/0/', '/page/11/', '/tag/nonsense/', '/tag/humor/page/4/', '/author/Nobody/', '/author/%E0%A4%A/', '/login', '/static/bootstrap.min.css'])(
    'answers %s with 404 and an HTML page',
    async (path) => {
      const answer = await get(path);
      expect(answer.status).toBe(404);
      expect(answer.type).toBe('text/html; charset=utf-8');
      expect(new Selector({ text: answer.text }).css('h2::text').get()).toBe('Not found');
    },
  );

  it('redirects a route without its trailing slash to the one with it', async () => {
    expect(await get('/page/2')).toMatchObject({ status: 301, location: '/page/2/' });
    expect(await get('/tag/love')).toMatchObject({ status: 301, location: '/tag/love/' });
  });

  it('serves the stylesheet the pages link to', async () => {
    const answer = await get('/static/main.css');
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('text/css; charset=utf-8');
    expect(answer.text).toContain('.quote {');
  });

  it('ignores a query string', async () => {
    expect((await get('/page/2/?utm=x')).text).toBe((await get('/page/2/')).text);
  });

  it('answers methods other than GET and HEAD with 405', async () => {
    const response = await fetch(new URL('/page/1/', site.url), { method: 'POST', body: 'x' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});
