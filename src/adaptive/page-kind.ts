import type { Request } from '../http/request.js';

/**
 * The kind of page a request fetches, for `meta.playwright: 'auto'`: what
 * the rendering predictor learns "needs the browser" or "does not" about.
 *
 * The key is the site's host and the callback's name (with a CrawlSpider's
 * rule number, since all its rules share one callback), e.g.
 * `shop.example parseProduct`. `meta.playwright_auto_kind` replaces the
 * callback part when the spider knows better (one generic `parse` for
 * pages that differ).
 *
 * Why no URL pattern in the key: a callback is the spider author's own
 * statement of "this kind of page", and every extra kind costs a plain
 * download before its first render (an unknown kind is tried plain first).
 * Paths do not generalise reliably — `/p/123` does, but slugs
 * (`/p/red-shoes-size-9`) make every page its own kind, which would never
 * be learned. Spiders whose one callback serves pages of different kinds
 * say so with `playwright_auto_kind`.
 */
export function pageKindOf(request: Request): string {
  const given = request.meta['playwright_auto_kind'];
  return `${hostOf(request.url)} ${typeof given === 'string' && given !== '' ? given : callbackKind(request)}`;
}

function callbackKind(request: Request): string {
  const callback = request.callback;
  // A bound method is named 'bound parse'; an anonymous arrow has no name; no callback is the spider's parse.
  const name = callback === null ? 'parse' : callback.name.replace(/^bound /, '') || 'callback';
  const rule = request.meta['rule'];
  return typeof rule === 'number' ? `${name} rule ${rule}` : name;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
