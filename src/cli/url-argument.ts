import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isPathLike, looksLikeBareFileName, targetUrl } from '../shell/target-url.js';
import { UsageError } from './usage-error.js';

// w3lib's is_url, which Scrapy's fetch, view and parse require: the text before `://` is one of these.
const FULL_URL = /^(?:https?|file):\/\//i;
const OTHER_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The `<url>` of fetch, view and parse: a full URL, as Scrapy requires.
 * Unlike the shell, these commands do not guess a scheme, so `example.com`
 * is a usage error that shows the URL to write instead.
 */
export function fullUrlArgument(value: unknown, command: string, cwd: string): string {
  const url = String(value ?? '').trim();
  if (FULL_URL.test(url)) return url;
  const example = isPathLike(url)
    ? targetUrl(url, cwd)
    : OTHER_SCHEME.test(url) ? 'http://example.com/' : `http://${url}${looksLikeBareFileName(url) ? `, or ${pathToFileURL(resolve(cwd, url)).href} for a local file` : ''}`;
  throw new UsageError(`'${url}' is not a full URL: write the full URL with its scheme, e.g. ${example} (http, https and file URLs)`, { command });
}
