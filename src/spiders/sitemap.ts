import { COMMENT, ELEMENT, TEXT, type DomNode } from '../dom/node.js';
import { parseXml } from '../dom/parse-xml.js';
import { pythonStrip } from '../python/strip.js';
import { decodeBody } from '../http/decode-body.js';
import { joinUrl } from '../http/urljoin.js';

/**
 * One `<url>` of a urlset or `<sitemap>` of a sitemap index: every child
 * element's text by its name without namespace (`loc`, `lastmod`,
 * `changefreq`, `priority`, `image`, …), and the `href`s of its
 * `<xhtml:link>` children in `alternate`.
 */
export interface SitemapEntry {
  loc: string;
  lastmod?: string;
  changefreq?: string;
  priority?: string;
  alternate?: string[];
  [field: string]: string | string[] | undefined;
}

/** Python's `str.splitlines()` boundaries, which robots.txt lines are split on in Scrapy. */
const PY_LINE_BREAK = /\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/;

/** An element's name as lxml reports it with the namespace taken off: a prefix bound to no namespace stays (`xhtml:link`). */
function plainName(node: DomNode): string {
  return node.ns === '' ? node.name : node.localName;
}

/**
 * lxml's `element.text` under a parser that removes comments: the text
 * before the first child element or processing instruction, with the text on
 * both sides of a comment joined.
 */
function leadingText(node: DomNode): string {
  let text = '';
  for (const child of node.children) {
    if (child.kind === TEXT) text += child.data;
    else if (child.kind !== COMMENT) break;
  }
  return text;
}

/**
 * A sitemap (Scrapy's `scrapy.utils.sitemap.Sitemap`): `type` is the root
 * element's name without namespace (`'urlset'`, `'sitemapindex'`, or
 * whatever else the document is), and iterating gives one entry per child
 * of the root that has a `<loc>`.
 *
 * The body is read as XML by seine's recovering parser: the encoding comes
 * from a byte order mark or the XML declaration (UTF-8 otherwise), a DTD is
 * never read, so no entity (external or internal) is ever expanded, and
 * broken markup is repaired as lxml repairs it. Unlike Scrapy, which
 * raises on a body without any element, such a body gives `type` null.
 */
export class Sitemap implements Iterable<SitemapEntry> {
  /** The root element's name without namespace; null when the body has no element at all. */
  readonly type: string | null;
  readonly #root: DomNode | null;

  constructor(body: Uint8Array | string) {
    const text = typeof body === 'string' ? body : decodeBody(body, null).text;
    const document = parseXml(text);
    const root = document.children.find((child) => child.kind === ELEMENT) ?? null;
    // parseXml puts an empty <html> into a document without elements (parsel's rule); that is no root here.
    const synthetic = root !== null && root.name === 'html' && root.children.length === 0 && root.attrs.length === 0 && !/<html[\s/>]/.test(text);
    this.#root = synthetic ? null : root;
    this.type = this.#root === null ? null : plainName(this.#root);
  }

  *[Symbol.iterator](): Iterator<SitemapEntry> {
    if (this.#root === null) return;
    for (const element of this.#root.children) {
      if (element.kind !== ELEMENT) continue;
      const entry: Record<string, string | string[]> = {};
      for (const field of element.children) {
        if (field.kind !== ELEMENT) continue; // Scrapy 2.8 fails on a processing instruction here; seine skips it
        const name = plainName(field);
        if (name === 'link') {
          const href = field.attrs.find((attr) => attr.name === 'href');
          if (href !== undefined) ((entry['alternate'] ??= []) as string[]).push(href.data);
        } else {
          entry[name] = pythonStrip(leadingText(field));
        }
      }
      if ('loc' in entry) yield entry as unknown as SitemapEntry;
    }
  }
}

/**
 * The URLs of the `Sitemap:` lines of a robots.txt (Scrapy's
 * `sitemap_urls_from_robots`): any case, leading spaces allowed, the value
 * joined to `baseUrl`, so a relative one (and an empty one) resolves
 * against the robots.txt URL.
 */
export function* sitemapUrlsFromRobots(robotsText: string, baseUrl: string): Generator<string> {
  for (const line of robotsText.split(PY_LINE_BREAK)) {
    if (!pythonStrip(line).toLowerCase().startsWith('sitemap:')) continue;
    const value = pythonStrip(line.slice(line.indexOf(':') + 1));
    yield joinUrl(value, baseUrl, 'utf-8');
  }
}
