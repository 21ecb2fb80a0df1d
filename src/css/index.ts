/**
 * CSS selectors → XPath 1.0, producing exactly the strings parsel 1.7 produces
 * (cssselect 1.2's HTMLTranslator for HTML documents, GenericTranslator for
 * XML, plus parsel's `::text` and `::attr(name)`). seine evaluates the result
 * with its own XPath engine, so identical strings mean identical matches.
 * spec/css/translate.spec.ts checks every selector in
 * spec/fixtures/css/selectors.txt against parsel's recorded output.
 */
import { CssError, CssFailure } from './css-error.js';
import { parseSelectorGroup } from './parser.js';
import { translateSelector } from './translator.js';

export { CssError };

export type CssDialect = 'html' | 'xml';

const DEFAULT_PREFIX = 'descendant-or-self::';
const HTML = { html: true } as const;
const XML = { html: false } as const;

/**
 * Spiders repeat a handful of queries on every page, so a hit must be cheap:
 * one Map per (dialect, prefix) keyed by the query, no re-ordering on a hit
 * (measured: LRU re-insertion made a hit ~1.9 µs instead of ~20 ns). When a
 * map is full its oldest entry goes; 1024 entries is far more than a project
 * uses and bounds memory when queries are built dynamically.
 */
const CACHE_LIMIT = 1024;
/** Callers use one or two prefixes; this only bounds a caller that varies it. */
const PREFIX_LIMIT = 16;
const caches = new Map<string, Map<string, string>>();

/**
 * Translates a group of selectors (`a, b` → `… | …`). Throws CssError where
 * parsel raises. `prefix` is put before each selector's path, as in cssselect.
 */
export function cssToXPath(css: string, dialect: CssDialect = 'html', prefix: string = DEFAULT_PREFIX): string {
  const cacheKey = dialect === 'html' && prefix === DEFAULT_PREFIX ? '' : `${dialect}\u0000${prefix}`;
  let cache = caches.get(cacheKey);
  if (cache === undefined) {
    cache = new Map();
    if (caches.size >= PREFIX_LIMIT) caches.delete(caches.keys().next().value!);
    caches.set(cacheKey, cache);
  }
  const cached = cache.get(css);
  if (cached !== undefined) return cached;
  const xpath = translateGroup(css, dialect, prefix);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(css, xpath);
  return xpath;
}

function translateGroup(css: string, dialect: CssDialect, prefix: string): string {
  const options = dialect === 'xml' ? XML : HTML;
  try {
    // The whole group is parsed before any part is translated: a syntax error
    // anywhere is reported ahead of an unsupported pseudo-class earlier on.
    const selectors = parseSelectorGroup(css);
    return selectors.map((selector) => translateSelector(selector, options, prefix)).join(' | ');
  } catch (err) {
    if (err instanceof CssFailure) throw new CssError(css, codePointPosition(css, err.pos), err.reason);
    // The parser bounds nesting (MAX_CSS_COMPOUND); should a query still exhaust the stack
    // (`:has()` arguments re-parsed inside strings), it is the query's fault, reported as such.
    if (err instanceof RangeError) throw new CssError(css, null, 'the selector is nested too deeply to translate');
    throw err;
  }
}

/** cssselect counts positions in code points; JavaScript strings index UTF-16 units. */
function codePointPosition(text: string, utf16Index: number | null): number | null {
  if (utf16Index === null) return null;
  let position = 0;
  for (let i = 0; i < utf16Index && i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const isHighSurrogate = unit >= 0xd800 && unit <= 0xdbff;
    const next = text.charCodeAt(i + 1);
    if (isHighSurrogate && next >= 0xdc00 && next <= 0xdfff && i + 1 < utf16Index) i++;
    position++;
  }
  return position;
}
