/**
 * Which answer the demo site gives for a path: a pure function, so that the
 * server stays a thin shell and the routes can be read in one place.
 */
import { authorPage, listingPage, MAIN_CSS, notFoundPage } from './render-pages.js';
import { authorBySlug, pageOf, quotesTagged } from './site-model.js';

export interface DemoAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const HTML = 'text/html; charset=utf-8';

function html(body: string, status = 200): DemoAnswer {
  return { status, headers: { 'Content-Type': HTML }, body };
}

function notFound(path: string): DemoAnswer {
  return html(notFoundPage(path), 404);
}

function listing(tag: string | undefined, page: number, path: string): DemoAnswer {
  const found = pageOf(quotesTagged(tag), page);
  return found === undefined ? notFound(path) : html(listingPage({ tag, page, ...found }));
}

/**
 * Routes: `/` (= page 1), `/page/<n>/`, `/tag/<tag>/`, `/tag/<tag>/page/<n>/`,
 * `/author/<slug>/`, `/static/main.css`. A route written without its
 * trailing slash is redirected (301) to it, as many sites do; everything
 * else, robots.txt included, is a 404.
 */
export function routeDemo(rawPath: string): DemoAnswer {
  const path = rawPath.split(/[?#]/)[0]!;
  let match: RegExpExecArray | null;
  if (path === '/') return listing(undefined, 1, path);
  if (path === '/static/main.css') return { status: 200, headers: { 'Content-Type': 'text/css; charset=utf-8' }, body: MAIN_CSS };
  if ((match = /^\/page\/(\d+)\/$/.exec(path)) !== null) return listing(undefined, Number(match[1]), path);
  if ((match = /^\/tag\/([a-z-]+)\/(?:page\/(\d+)\/)?$/.exec(path)) !== null) return listing(match[1], Number(match[2] ?? 1), path);
  if ((match = /^\/author\/([^/]+)\/$/.exec(path)) !== null) {
    let slug: string;
    try {
      slug = decodeURIComponent(match[1]!);
    } catch {
      return notFound(path); // a malformed %-escape names no author
    }
    const author = authorBySlug(slug);
    return author === undefined ? notFound(path) : html(authorPage(author));
  }
  if (!path.endsWith('/') && routeDemo(`${path}/`).status === 200) {
    return { status: 301, headers: { Location: `${path}/`, 'Content-Type': HTML }, body: '' };
  }
  return notFound(path);
}
