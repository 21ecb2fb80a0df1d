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

/**
 * A path-absolute link (`/page/2/`, `/a?b=1#c`) of characters the URL parser
 * keeps as they are, with no dot segment: joined by writing it after the
 * base's origin. A page's ~75 links cost ~1 µs each through `new URL` (the
 * crawl benchmark's largest share of URL parsing); the result is the same
 * string (spec/http/urljoin-fast.spec.ts compares both on tricky links).
 * `'` is left out because the parser escapes it in a special URL's query.
 */
const KEPT_AS_IS = /^\/(?![\/\\])[A-Za-z0-9\-._~!$&()*+,;=:@/%?#]*$/;
const DOT_SEGMENT = /\/(?:\.|%2e)/i;
const PLAIN_ORIGIN = /^https?:\/\/[a-z0-9.-]+(?::\d+)?(?=\/)/;

let lastBase = '';
let lastOrigin: string | null = null;

/** The origin of `base` when it is written as the URL parser writes it (checked once per base), else null. */
function plainOrigin(base: string): string | null {
  if (base === lastBase) return lastOrigin;
  const candidate = PLAIN_ORIGIN.exec(base)?.[0] ?? null;
  let origin: string | null = null;
  try {
    if (candidate !== null && new URL(base).origin === candidate) origin = candidate;
  } catch {
    origin = null;
  }
  lastBase = base;
  lastOrigin = origin;
  return origin;
}

/** `href` resolved against `base`; an href the URL standard cannot resolve comes back as given, for Request to report. */
export function joinUrl(href: string, base: string, encoding: string): string {
  if (KEPT_AS_IS.test(href) && !DOT_SEGMENT.test(href)) {
    const origin = plainOrigin(base);
    if (origin !== null) return origin + href;
  }
  const prepared = encodeQueryForPage(href, encoding);
  try {
    return new URL(prepared, base).href;
  } catch {
    return prepared;
  }
}
