import { decodeHtmlEntities } from '../../dom/decode-entities.js';
import { safeUrl } from '../../http/request.js';
import { escapeRegExp } from '../../escape-regexp.js';

/**
 * Finds `<meta http-equiv="refresh" content="5; url=…">` with w3lib's
 * get_meta_refresh rules (what Scrapy uses): two regular expressions, for
 * either attribute order, over the text with comments and the ignored
 * tags' elements removed. A refresh without `url=` does not count.
 * Character references are decoded with lxml's rules (named ones need their
 * `;`), so `?a=1&copy=2` stays as written where w3lib would make it `©=2`.
 */
const EQUIV_FIRST =
  /<meta\s[^>]*http-equiv[^>]*refresh[^>]*content\s*=\s*(?<quote>["'])(?<int>(?:\d*\.)?\d+)\s*;\s*url=\s*(?<url>.*?)\k<quote>/is;
const CONTENT_FIRST =
  /<meta\s[^>]*content\s*=\s*(?<quote>["'])(?<int>(?:\d*\.)?\d+)\s*;\s*url=\s*(?<url>.*?)\k<quote>[^>]*?\shttp-equiv\s*=[^>]*refresh/is;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

export interface MetaRefresh {
  /** Seconds before the refresh. */
  interval: number;
  /** The absolute URL to go to. */
  url: string;
}

/** Removes `<tag …>…</tag>` and `<tag/>` for each tag, case-insensitively (w3lib's remove_tags_with_content). */
function removeTagsWithContent(text: string, tags: readonly string[]): string {
  if (tags.length === 0) return text;
  const alternatives = tags.map((tag) => {
    const name = escapeRegExp(tag);
    return `<${name}\\b[\\s\\S]*?</${name}>|<${name}\\s*/>`;
  });
  return text.replace(new RegExp(alternatives.join('|'), 'gi'), '');
}

/** The meta refresh of an HTML text, resolved against `baseUrl`; null when there is none. */
export function getMetaRefresh(text: string, baseUrl: string, ignoreTags: readonly string[] = []): MetaRefresh | null {
  const cleaned = decodeHtmlEntities(removeTagsWithContent(text, ignoreTags)).replace(COMMENT, '');
  const match = EQUIV_FIRST.exec(cleaned) ?? CONTENT_FIRST.exec(cleaned);
  if (match === null || match.groups === undefined) return null;
  const interval = Number(match.groups.int);
  const href = (match.groups.url ?? '').replace(/^[ "']+|[ "']+$/g, '');
  let url: string;
  try {
    url = new URL(safeUrl(href), baseUrl).href;
  } catch {
    return null;
  }
  return { interval, url };
}
