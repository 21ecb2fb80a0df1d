/** The URL tests LinkExtractor applies to each candidate link, as Scrapy's helpers in scrapy.linkextractors and scrapy.utils.url. */
import { urlparse } from '../python/urlsplit.js';
import { isUrlFromDomain } from '../http/url/domain-match.js';
import { isRegExp } from '../value-kinds.js';

export type Pattern = RegExp | string;

/** Patterns as RegExps that can be tested repeatedly: a `g`/`y` flag would make `test()` remember where it stopped. */
export function compilePatterns(patterns: Pattern | Iterable<Pattern> | undefined): RegExp[] {
  return toList(patterns).map((p) => {
    if (typeof p === 'string') return new RegExp(p);
    return p.global || p.sticky ? new RegExp(p.source, p.flags.replace(/[gy]/g, '')) : p;
  });
}

/** Scrapy's `arg_to_iter`: nothing → [], one value → [value], an iterable (not a string) → its values. */
export function toList<T>(value: T | Iterable<T> | undefined | null): T[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string' || isRegExp(value)) return [value];
  if (typeof value === 'object' && Symbol.iterator in value) return [...(value as Iterable<T>)];
  return [value as T];
}

export function matchesAny(text: string, regexes: readonly RegExp[]): boolean {
  return regexes.some((r) => r.test(text));
}

/** Only these schemes are links worth following (Scrapy's `_is_valid_url`). */
export function isFollowableUrl(url: string): boolean {
  const scheme = url.split('://', 1)[0];
  return scheme === 'http' || scheme === 'https' || scheme === 'file' || scheme === 'ftp';
}

/**
 * The host is one of `domains` or a subdomain. Unlike Scrapy, which compares
 * the netloc, a URL with a port matches its bare domain (seine's offsite
 * rule: `allowDomains: ['127.0.0.1']` keeps `http://127.0.0.1:8080/`).
 */
export function isFromAnyDomain(url: string, domains: ReadonlySet<string>): boolean {
  for (const domain of domains) if (isUrlFromDomain(url, domain)) return true;
  return false;
}

/** The URL's path (without `;params`), lower-cased, ends with one of `extensions` (each with its leading dot): so `.tar.gz` works. */
export function hasAnyExtension(url: string, extensions: ReadonlySet<string>): boolean {
  let path: string;
  try {
    path = urlparse(url).path;
  } catch {
    return false;
  }
  const lower = path.toLowerCase();
  for (const ext of extensions) if (lower.endsWith(ext)) return true;
  return false;
}
