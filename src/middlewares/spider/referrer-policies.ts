/**
 * The W3C Referrer Policy rules Scrapy's RefererMiddleware implements, as
 * plain objects: each says, for a link from `responseUrl` to `requestUrl`,
 * what the `Referer` header holds (null: none). URLs are stripped of
 * credentials and fragment, and of path and query where only the origin may
 * go (https://www.w3.org/TR/referrer-policy/#strip-url).
 */
export interface ReferrerPolicy {
  /** The W3C name of a built-in policy; a user's policy may leave it out. */
  readonly name?: string;
  referrer(responseUrl: string, requestUrl: string): string | null;
}

const LOCAL_SCHEMES = ['about', 'blob', 'data', 'filesystem'];
// Scrapy's default also sends nothing from file:// and s3:// pages.
const SCRAPY_DEFAULT_NOREFERRER_SCHEMES = [...LOCAL_SCHEMES, 'file', 's3'];

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** A URL's scheme, lower-cased and without its colon; '' when it has none. */
export function schemeOf(url: string): string {
  // Every link asks (~75 a page): the usual two without a regular expression's match array.
  if (url.startsWith('https:')) return 'https';
  if (url.startsWith('http:')) return 'http';
  return /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase() ?? '';
}

/** A URL stripped both ways: without credentials and fragment, and to its origin. */
interface StrippedUrl {
  readonly url: string;
  readonly stripped: string | null;
  readonly origin: string | null;
}

// The last two URLs stripped: every link of a page asks for the page's own URL (~75 times a page on the crawl benchmark,
// where parsing it each time was ~5 % of a crawl's CPU); two, as the same-origin policies alternate page and link.
let recent: StrippedUrl = { url: '', stripped: null, origin: null };
let before: StrippedUrl = recent;

function stripBothWays(url: string): StrippedUrl {
  if (url === recent.url) return recent;
  if (url === before.url) {
    [recent, before] = [before, recent];
    return recent;
  }
  const parsed = parse(url);
  let entry: StrippedUrl;
  if (parsed === null) {
    entry = { url, stripped: null, origin: null };
  } else {
    const origin = `${parsed.protocol}//${parsed.host}/`;
    parsed.username = '';
    parsed.password = '';
    parsed.hash = '';
    entry = { url, stripped: parsed.href, origin };
  }
  before = recent;
  recent = entry;
  return entry;
}

/** The URL without credentials and fragment (default ports drop out too); with `originOnly`, `scheme://host[:port]/`. */
export function stripUrl(url: string, originOnly = false): string | null {
  if (!url) return null;
  const entry = stripBothWays(url);
  return originOnly ? entry.origin : entry.stripped;
}

export function tlsProtected(url: string): boolean {
  const scheme = schemeOf(url);
  return scheme === 'https' || scheme === 'ftps';
}

// Scrapy's simplification of "potentially trustworthy": TLS, and never data:.
function potentiallyTrustworthy(url: string): boolean {
  return schemeOf(url) !== 'data' && tlsProtected(url);
}

function policy(
  name: string,
  referrer: (helpers: Helpers, responseUrl: string, requestUrl: string) => string | null,
  noReferrerSchemes = LOCAL_SCHEMES,
): ReferrerPolicy & { readonly name: string } {
  const helpers: Helpers = {
    stripped: (url) => (noReferrerSchemes.includes(schemeOf(url)) ? null : stripUrl(url)),
    originReferrer: (url) => (noReferrerSchemes.includes(schemeOf(url)) ? null : stripUrl(url, true)),
  };
  return Object.freeze({ name, referrer: (responseUrl: string, requestUrl: string) => referrer(helpers, responseUrl, requestUrl) });
}

interface Helpers {
  stripped(url: string): string | null;
  originReferrer(url: string): string | null;
}

const origin = (url: string): string | null => stripUrl(url, true);
const downgradeAllowed = (responseUrl: string, requestUrl: string): boolean =>
  !tlsProtected(responseUrl) || potentiallyTrustworthy(requestUrl);

function noReferrerWhenDowngrade(h: Helpers, responseUrl: string, requestUrl: string): string | null {
  return !tlsProtected(responseUrl) || tlsProtected(requestUrl) ? h.stripped(responseUrl) : null;
}

export const NO_REFERRER = policy('no-referrer', () => null);
export const NO_REFERRER_WHEN_DOWNGRADE = policy('no-referrer-when-downgrade', noReferrerWhenDowngrade);
export const SAME_ORIGIN = policy('same-origin', (h, from, to) => (origin(from) === origin(to) ? h.stripped(from) : null));
export const ORIGIN = policy('origin', (h, from) => h.originReferrer(from));
export const STRICT_ORIGIN = policy('strict-origin', (h, from, to) => (downgradeAllowed(from, to) ? h.originReferrer(from) : null));
export const ORIGIN_WHEN_CROSS_ORIGIN = policy('origin-when-cross-origin', (h, from, to) => {
  const fromOrigin = origin(from);
  return fromOrigin === origin(to) ? h.stripped(from) : fromOrigin;
});
export const STRICT_ORIGIN_WHEN_CROSS_ORIGIN = policy('strict-origin-when-cross-origin', (h, from, to) => {
  if (origin(from) === origin(to)) return h.stripped(from);
  return downgradeAllowed(from, to) ? h.originReferrer(from) : null;
});
export const UNSAFE_URL = policy('unsafe-url', (h, from) => h.stripped(from));
/** Scrapy's default: no-referrer-when-downgrade, and nothing from file:// or s3:// pages. */
export const SCRAPY_DEFAULT = policy('scrapy-default', noReferrerWhenDowngrade, SCRAPY_DEFAULT_NOREFERRER_SCHEMES);

export const REFERRER_POLICIES: ReadonlyMap<string, ReferrerPolicy> = new Map(
  [NO_REFERRER, NO_REFERRER_WHEN_DOWNGRADE, SAME_ORIGIN, ORIGIN, STRICT_ORIGIN, ORIGIN_WHEN_CROSS_ORIGIN,
    STRICT_ORIGIN_WHEN_CROSS_ORIGIN, UNSAFE_URL, SCRAPY_DEFAULT].map((p) => [p.name, p]),
);

/** A policy given as a name, an object with `referrer()`, or a class whose instances have one. */
export type ReferrerPolicySpec = string | ReferrerPolicy | (new () => ReferrerPolicy);

/**
 * The policy `spec` names, or null when it names none. Names are
 * case-insensitive; the empty string is no-referrer-when-downgrade (the
 * spec's "empty string" policy).
 */
export function resolveReferrerPolicy(spec: unknown): ReferrerPolicy | null {
  if (typeof spec === 'string') {
    const name = spec.toLowerCase();
    return name === '' ? NO_REFERRER_WHEN_DOWNGRADE : (REFERRER_POLICIES.get(name) ?? null);
  }
  if (typeof spec === 'function') {
    let instance: unknown;
    try {
      instance = new (spec as new () => unknown)();
    } catch {
      return null; // not a class (an arrow function, a class that needs arguments)
    }
    return hasReferrer(instance) ? instance : null;
  }
  return hasReferrer(spec) ? spec : null;
}

function hasReferrer(value: unknown): value is ReferrerPolicy {
  return typeof value === 'object' && value !== null && typeof (value as { referrer?: unknown }).referrer === 'function';
}
