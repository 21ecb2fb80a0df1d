/**
 * What `seine shell <target>` (and the console's `fetch`) make of a target,
 * as Scrapy's guess_scheme: a path written as a path (`./x.html`,
 * `../x.html`, `/abs/x.html`) is a local file; anything with a scheme
 * (`http:`, `https:`, `file:`, `data:`) is used as written; anything else is
 * a host name and gets `http://` — so a bare `index.html` is looked up as a
 * host, and fails with a DNS error that the shell explains.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const PATH_LIKE = /^(?:\.{1,2}[/\\]|\/)/;
// `localhost:8000/x` has no scheme: a colon followed by a port is a host and port.
const SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d+(?:[/?#]|$))/i;

/** A target written as a path (`./x`, `../x`, `/x`): a local file, never a host. */
export function isPathLike(target: string): boolean {
  return PATH_LIKE.test(target);
}

export function targetUrl(target: string, cwd: string): string {
  const trimmed = target.trim();
  if (isPathLike(trimmed) || trimmed === '.' || trimmed === '..') return pathToFileURL(resolve(cwd, trimmed)).href;
  if (SCHEME.test(trimmed)) return trimmed;
  return `http://${trimmed.replace(/^\/\//, '')}`;
}

/** True when the target was read as a host name although it looks like a file name (`index.html`). */
export function looksLikeBareFileName(target: string): boolean {
  return !PATH_LIKE.test(target) && !SCHEME.test(target) && /^[^/:]+\.(?:html?|xml|json|txt|xhtml)$/i.test(target.trim());
}
