import { cssToXPath } from '../css/index.js';
import { ATTRIBUTE, ELEMENT, stringValue, type DomNode } from '../dom/node.js';
import type { Response } from '../http/response.js';
import { canonicalizeUrl } from '../http/url/canonicalize-url.js';
import { UnencodableError } from '../http/url/encode-text.js';
import { safeUrlString } from '../http/url/safe-url-string.js';
import { UrlSplitError } from '../python/urlsplit.js';
import { baseHref } from '../http/urljoin.js';
import type { Selector } from '../selector/index.js';
import { IGNORED_EXTENSIONS } from './ignored-extensions.js';
import { Link } from './link.js';
import { LinkExtractorError } from './link-extractor-error.js';
import { pythonUrljoin } from '../python/urljoin.js';
import { compilePatterns, hasAnyExtension, isFollowableUrl, isFromAnyDomain, matchesAny, toList, type Pattern } from './url-filters.js';

export interface LinkExtractorOptions {
  /** Keep only URLs one of these matches (searched anywhere in the URL, as Python's `re.search`). Strings are compiled with `new RegExp`. */
  allow?: Pattern | Iterable<Pattern>;
  /** Drop URLs one of these matches; wins over `allow`. */
  deny?: Pattern | Iterable<Pattern>;
  /** Keep only links to these domains or their subdomains. */
  allowDomains?: string | Iterable<string>;
  denyDomains?: string | Iterable<string>;
  /** Look for links only inside the elements these XPaths select. */
  restrictXpaths?: string | Iterable<string>;
  /** Same, as CSS selectors. */
  restrictCss?: string | Iterable<string>;
  /** Keep only links whose text one of these matches. */
  restrictText?: Pattern | Iterable<Pattern>;
  /** Element names to take links from; default `['a', 'area']`. */
  tags?: string | Iterable<string>;
  /** Attribute names holding links; default `['href']`. */
  attrs?: string | Iterable<string>;
  /** Canonicalize each URL (sorted query, no fragment); default false. */
  canonicalize?: boolean;
  /** Drop duplicate links; default true. */
  unique?: boolean;
  /** Extensions (without the dot) of links to drop; default IGNORED_EXTENSIONS. `[]` keeps all. */
  denyExtensions?: string | Iterable<string>;
  /** Rewrites each attribute value (already joined to the base URL); null or undefined drops the link. */
  processValue?: (value: string) => string | null | undefined;
  /** Strip HTML whitespace around attribute values; default true. */
  strip?: boolean;
}

const XHTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/** lxml's tag name with the XHTML namespace removed (`_nons`): what `tags` is compared with. */
function tagName(el: DomNode): string {
  if (el.ns === '') return el.name;
  return el.ns === XHTML_NAMESPACE ? el.localName : `{${el.ns}}${el.localName}`;
}

/** w3lib's strip_html5_whitespace. */
function stripHtml5Whitespace(text: string): string {
  return text.replace(/^[ \t\n\r\f]+|[ \t\n\r\f]+$/g, '');
}

/** Scrapy's rel_has_nofollow. */
function relHasNofollow(rel: string | null): boolean {
  return rel !== null && rel.replace(/,/g, ' ').split(/\s+/).includes('nofollow');
}

/** Adds `key` to `seen`; true when it was not there. */
function isNew(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

// About 40 ms of work: a candidate link costs 35–50 µs (measured on a 100,000-link page); a page with fewer is one slice.
const LINKS_PER_SLICE = 1000;

function canonicalOrSelf(url: string, keepFragments: boolean): string {
  try {
    return canonicalizeUrl(url, { keepFragments });
  } catch {
    return url;
  }
}

/**
 * Finds the links of a page that match its options: Scrapy 2.8's
 * LinkExtractor (lxmlhtml.LxmlLinkExtractor), with the same defaults,
 * filters and order, and the same URLs (links are joined with Python's
 * urljoin and made safe with safe_url_string, as Scrapy does).
 *
 * Differences, on purpose: a link whose URL Python would refuse mid-way (a
 * bad port) is skipped instead of failing the whole page; `allowDomains`
 * matches hosts with a port (see url-filters.ts).
 */
export class LinkExtractor {
  readonly allowRes: readonly RegExp[];
  readonly denyRes: readonly RegExp[];
  readonly allowDomains: ReadonlySet<string>;
  readonly denyDomains: ReadonlySet<string>;
  /** `restrictXpaths` followed by the XPath translations of `restrictCss`. */
  readonly restrictXpaths: readonly string[];
  readonly restrictText: readonly RegExp[];
  readonly tags: ReadonlySet<string>;
  readonly attrs: ReadonlySet<string>;
  readonly canonicalize: boolean;
  readonly unique: boolean;
  /** With their leading dot. */
  readonly denyExtensions: ReadonlySet<string>;
  readonly processValue: ((value: string) => string | null | undefined) | null;
  readonly strip: boolean;

  constructor(options: LinkExtractorOptions = {}) {
    this.allowRes = compilePatterns(options.allow);
    this.denyRes = compilePatterns(options.deny);
    this.allowDomains = new Set(toList(options.allowDomains));
    this.denyDomains = new Set(toList(options.denyDomains));
    this.restrictXpaths = [...toList(options.restrictXpaths), ...toList(options.restrictCss).map((css) => cssToXPath(css, 'html'))];
    this.restrictText = compilePatterns(options.restrictText);
    this.tags = new Set(options.tags === undefined ? ['a', 'area'] : toList(options.tags));
    this.attrs = new Set(options.attrs === undefined ? ['href'] : toList(options.attrs));
    this.canonicalize = options.canonicalize ?? false;
    this.unique = options.unique ?? true;
    const denyExtensions = options.denyExtensions === undefined ? IGNORED_EXTENSIONS : toList(options.denyExtensions);
    this.denyExtensions = new Set(denyExtensions.map((ext) => `.${ext}`));
    this.processValue = options.processValue ?? null;
    this.strip = options.strip ?? true;
  }

  /** The links of `response` that pass the filters, in document order (per restricting query), without duplicates when `unique`. */
  extractLinks(response: Response): Link[] {
    let all: Link[] | null = null;
    for (const slice of this.extractLinkSlices(response)) {
      if (all === null) all = slice;
      // A loop, not push(...slice): spreading a page's 150,000 links overflows the call stack.
      else for (const link of slice) all.push(link);
    }
    return all ?? [];
  }

  /**
   * extractLinks' links, a slice at a time, so that a caller can let the
   * event loop turn between slices of a huge page (CrawlSpider does): each
   * slice covers at most LINKS_PER_SLICE candidate links. A page with fewer
   * is one slice. Every slice but the last is non-empty only when some of
   * its candidates passed the filters.
   */
  *extractLinkSlices(response: Response): Generator<Link[], void, undefined> {
    const baseUrl = baseUrlOf(response);
    let docs: Selector[];
    if (this.restrictXpaths.length > 0) {
      docs = this.restrictXpaths.flatMap((query) => {
        const selected = [...response.xpath(query)];
        for (const sel of selected) {
          if (typeof sel.root !== 'object' || sel.root.kind !== ELEMENT) {
            throw new LinkExtractorError(
              `LinkExtractor restriction '${query}' selected ${describeRoot(sel.root)} on ${response.url}: restrictXpaths and restrictCss must select elements (drop '/@attr', '/text()', '::attr()' or '::text' from the query)`,
            );
          }
        }
        return selected;
      });
    } else {
      docs = [response.selector];
    }
    // Scrapy dedupes each restricted part's raw links, filters them, canonicalizes, dedupes again,
    // then dedupes the parts together; each step keeps first occurrences, so it can run link by link.
    const acrossDocs = this.unique && docs.length > 1 ? new Set<string>() : null;
    const rawKey = this.canonicalize ? (link: Link) => link.url : (link: Link) => canonicalOrSelf(link.url, true);
    let slice: Link[] = [];
    let candidates = 0;
    for (const doc of docs) {
      const raw = this.unique ? new Set<string>() : null;
      const kept = this.unique && this.canonicalize ? new Set<string>() : null;
      for (const link of this.linksIn(doc.root as DomNode, response.url, response.encoding, baseUrl)) {
        if (++candidates % LINKS_PER_SLICE === 0) {
          yield slice;
          slice = [];
        }
        if (raw !== null && !isNew(raw, rawKey(link))) continue;
        if (!this.isAllowed(link)) continue;
        if (this.canonicalize) link.url = canonicalOrSelf(link.url, false);
        if (kept !== null && !isNew(kept, link.url)) continue;
        if (acrossDocs !== null && !isNew(acrossDocs, link.key())) continue;
        slice.push(link);
      }
    }
    yield slice;
  }

  /** True when `url` passes the domain and allow/deny filters (Scrapy's `matches`); extensions and text are not checked. */
  matches(url: string): boolean {
    if (this.allowDomains.size > 0 && !isFromAnyDomain(url, this.allowDomains)) return false;
    if (this.denyDomains.size > 0 && isFromAnyDomain(url, this.denyDomains)) return false;
    const allowed = this.allowRes.length === 0 || matchesAny(url, this.allowRes);
    return allowed && !matchesAny(url, this.denyRes);
  }

  /** Every link under `root` (itself included) from a wanted tag and attribute, before the filters and dedupes. */
  private *linksIn(root: DomNode, responseUrl: string, encoding: string, baseUrl: string): Generator<Link, void, undefined> {
    const stack: DomNode[] = [root];
    while (stack.length > 0) {
      const el = stack.pop()!;
      const children = el.children;
      for (let i = children.length - 1; i >= 0; i--) if (children[i]!.kind === ELEMENT) stack.push(children[i]!);
      if (!this.tags.has(tagName(el))) continue;
      for (const attr of el.attrs) {
        if (!this.attrs.has(attr.name)) continue;
        const url = this.linkUrl(attr.data, responseUrl, encoding, baseUrl);
        if (url !== null) yield new Link(url, stringValue(el), '', relHasNofollow(el.getAttr('rel')));
      }
    }
  }

  /** One attribute value to an absolute, safe URL; null to skip it. */
  private linkUrl(value: string, responseUrl: string, encoding: string, baseUrl: string): string | null {
    try {
      let url: string | null | undefined = pythonUrljoin(baseUrl, this.strip ? stripHtml5Whitespace(value) : value);
      if (this.processValue !== null) url = this.processValue(url);
      if (url === null || url === undefined) return null;
      // Joined again so that a relative URL processValue returned becomes absolute.
      return pythonUrljoin(responseUrl, safeUrlString(url, encoding));
    } catch (error) {
      if (error instanceof UrlSplitError || error instanceof UnencodableError) return null;
      throw error;
    }
  }

  private isAllowed(link: Link): boolean {
    const url = link.url;
    if (!isFollowableUrl(url)) return false;
    if (this.allowRes.length > 0 && !matchesAny(url, this.allowRes)) return false;
    if (this.denyRes.length > 0 && matchesAny(url, this.denyRes)) return false;
    if (this.allowDomains.size > 0 && !isFromAnyDomain(url, this.allowDomains)) return false;
    if (this.denyDomains.size > 0 && isFromAnyDomain(url, this.denyDomains)) return false;
    if (this.denyExtensions.size > 0 && hasAnyExtension(url, this.denyExtensions)) return false;
    if (this.restrictText.length > 0 && !matchesAny(link.text, this.restrictText)) return false;
    return true;
  }
}

/** Scrapy's get_base_url: the `<base href>` joined to the page's URL, both made safe. */
function baseUrlOf(response: Response): string {
  const pageUrl = safeOr(response.url, 'utf-8');
  const href = baseHref(response.text);
  if (href === null) return pageUrl;
  try {
    return pythonUrljoin(pageUrl, safeOr(href, response.encoding));
  } catch {
    return pageUrl;
  }
}

function safeOr(url: string, encoding: string): string {
  try {
    return safeUrlString(url, encoding);
  } catch {
    return url;
  }
}

function describeRoot(root: unknown): string {
  if (typeof root === 'object' && root !== null) return (root as DomNode).kind === ATTRIBUTE ? 'an attribute' : 'a text node';
  return `the ${typeof root} ${JSON.stringify(root)}`;
}
