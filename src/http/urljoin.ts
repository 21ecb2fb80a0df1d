/**
 * Joining links to a page's URL, as `response.urljoin()` and `follow()` do.
 * The join itself is the WHATWG URL parser's (what browsers do: `\` as `/`
 * in http URLs, dot segments resolved, tabs and newlines dropped); Scrapy
 * uses Python's RFC 3986 `urljoin`, which agrees on ordinary links.
 */
import { InvalidUrlError } from './http-errors.js';
import { UnencodableError, encodeBinary } from './url/encode-text.js';

const BASE_HREF = /<base\s[^>]*href\s*=\s*["']\s*([^"'\s]+)\s*["']/i;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

/** Scrapy's `get_base_url`: the `<base href>` in the first 4,096 characters, comments removed; null when there is none. */
export function baseHref(text: string): string | null {
  const head = text.slice(0, 4096);
  if (!/<base\s/i.test(head)) return null;
  return BASE_HREF.exec(head.replace(COMMENT, ''))?.[1] ?? null;
}

function percentEncode(bytes: string): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += '%' + bytes.charCodeAt(i).toString(16).toUpperCase().padStart(2, '0');
  return out;
}

/**
 * Non-ASCII in the query and fragment written in the page's encoding
 * (w3lib encodes those parts with the response encoding; the path is always
 * UTF-8; so is everything on UTF-16 pages, as in browsers). The WHATWG
 * parser alone would write UTF-8 everywhere. A character the encoding lacks
 * is an InvalidUrlError, as Python raises UnicodeEncodeError there.
 */
function encodeQueryForPage(href: string, encoding: string): string {
  if (encoding === 'utf-8' || encoding === 'utf-16le' || encoding === 'utf-16be' || /^[\x00-\x7f]*$/.test(href)) return href;
  const start = href.search(/[?#]/);
  if (start < 0) return href;
  try {
    return href.slice(0, start) + href.slice(start).replace(/[^\x00-\x7f]+/g, (run) => percentEncode(encodeBinary(run, encoding)));
  } catch (error) {
    if (error instanceof UnencodableError) throw InvalidUrlError.unencodable(href, error.character, error.encoding);
    throw error;
  }
}

/** `href` resolved against `base`; an href the URL standard cannot resolve comes back as given, for Request to report. */
export function joinUrl(href: string, base: string, encoding: string): string {
  const prepared = encodeQueryForPage(href, encoding);
  try {
    return new URL(prepared, base).href;
  } catch {
    return prepared;
  }
}
