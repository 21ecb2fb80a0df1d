/**
 * The page view() writes to a local file: the response's bytes with a
 * `<base href>` added, so that relative stylesheets, scripts, images and
 * links still point at the site and not at the temp folder.
 *
 * Scrapy's open_in_browser does this with two regexps on the bytes and is
 * weak in ways a user sees: it deletes every comment (the page changes), it
 * keeps the page unchanged when `<base` appears anywhere (in a comment, in
 * `<basefont>`, in a script), it adds nothing to a page without `<head>`, and
 * it drops the HTTP charset, so a page whose encoding came only from
 * Content-Type shows as mojibake from the file. Here the bytes stay as they
 * are (the search works on a latin1 view of them, one character per byte),
 * and only what the browser needs is inserted:
 *   - `<base href="<url>">` right after the `<head…>` tag; with no `<head>`,
 *     after the `<html…>` tag; with neither, after the doctype or at the start
 *     (the HTML parser then makes the head around it itself);
 *   - nothing when the page has a `<base href>` with an absolute URL; a
 *     relative one (`/static/`, `//cdn…`) would resolve against the file, so
 *     the page gets a `<base>` with that href made absolute, placed before
 *     its own (the first `<base href>` is the one browsers use);
 *   - `<meta charset="…">` after the base when the encoding came from the
 *     Content-Type header, which the file loses, and the body does not
 *     declare the same one itself (no BOM, no matching `<meta>` in its first
 *     1,024 bytes). An encoding seine only inferred from the bytes (UTF-8
 *     or windows-1252) is not written down: the browser's own guess is as good.
 * Comments and the raw text of script, style, textarea and title elements
 * are hidden from the search, so `<head>` in a comment or in a script's
 * string is never taken for the tag.
 */
import { declaredEncoding } from '../http/decode-body.js';
import type { Response } from '../http/response.js';

const HIDDEN = /<!--[\s\S]*?(?:-->|$)|<(script|style|textarea|title|xmp)(?=[\s/>])[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi;
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i;
const HREF = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const DOCTYPE = /<!doctype(?=[\s>])[^>]*>/i;

/** An opening tag named `name` (not `<header>`); quoted attribute values may hold `>`. */
function tagPattern(name: string): RegExp {
  return new RegExp(`<${name}(?=[\\s/>])(?:(?:[^>"']|"[^"]*"|'[^']*')*|[^>]*)>`, 'i');
}
const HEAD = tagPattern('head');
const HTML = tagPattern('html');
const BASE = tagPattern('base');

/** The markup with comments and raw text blanked out, offsets unchanged. */
function visibleMarkup(markup: string): string {
  return markup.replace(HIDDEN, (hidden) => ' '.repeat(hidden.length));
}

/** An attribute value, escaped; a URL's non-ASCII is percent-encoded so the tag is ASCII in any page encoding. */
function attribute(value: string): string {
  return value.replace(/[^\x00-\x7f]+/g, (run) => encodeURIComponent(run)).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** The base URL to declare, or null when the page's own `<base href>` already works from a file. */
function baseToAdd(visible: string, markup: string, url: string): string | null {
  const base = BASE.exec(visible);
  const href = base === null ? null : HREF.exec(markup.slice(base.index, base.index + base[0].length));
  if (href === null) return url;
  const value = (href[1] ?? href[2] ?? href[3] ?? '').trim();
  if (ABSOLUTE_URL.test(value)) return null;
  try {
    return new URL(value, url).href;
  } catch {
    return url;
  }
}

/** Where the tags go in `markup`; `start` is past a BOM, if any. */
function insertionPoint(visible: string, start: number): number {
  for (const pattern of [HEAD, HTML, DOCTYPE]) {
    const match = pattern.exec(visible);
    if (match !== null) return match.index + match[0].length;
  }
  return start;
}

/** `markup` with the tags added, or null when it needs none. */
function insertTags(markup: string, url: string, charset: string | null, start: number): { at: number; tags: string } | null {
  const visible = visibleMarkup(markup);
  const base = baseToAdd(visible, markup, url);
  if (base === null && charset === null) return null;
  const tags = (base === null ? '' : `<base href="${attribute(base)}">`) + (charset === null ? '' : `<meta charset="${charset}">`);
  return { at: insertionPoint(visible, start), tags };
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The bytes to write for an HTML response: its body with a `<base href>`
 * and, when needed, a `<meta charset>` added. UTF-16 pages are searched as
 * text and written back as UTF-16 with a BOM, since their bytes have no
 * ASCII view.
 */
export function withBaseTag(response: Pick<Response, 'body' | 'url' | 'encoding' | 'text' | 'headers'>): Buffer {
  const { body, url, encoding } = response;
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    const markup = response.text;
    const insert = insertTags(markup, url, null, 0);
    const page = insert === null ? markup : markup.slice(0, insert.at) + insert.tags + markup.slice(insert.at);
    const bytes = Buffer.from(`\ufeff${page}`, 'utf16le');
    return encoding === 'utf-16be' ? bytes.swap16() : bytes;
  }
  const hasBom = body.subarray(0, 3).equals(UTF8_BOM);
  const fromHeader = /;\s*charset\s*=/i.test(response.headers.get('content-type') ?? '');
  const charset = !fromHeader || hasBom || declaredEncoding(body) === encoding ? null : encoding;
  const insert = insertTags(body.toString('latin1'), url, charset, hasBom ? 3 : 0);
  if (insert === null) return body;
  return Buffer.concat([body.subarray(0, insert.at), Buffer.from(insert.tags, 'latin1'), body.subarray(insert.at)]);
}
