/**
 * What `follow()` can take a link from, and Scrapy's rules for it
 * (`_url_from_selector`): a string is an href; a Selector of an attribute,
 * a text node or an XPath string gives its value; a Selector of an `<a>` or
 * `<link>` element gives its href; anything else is refused with Scrapy's
 * message. Values lose surrounding HTML whitespace (space, tab, LF, FF, CR).
 */
import { inspect } from 'node:util';
import { ATTRIBUTE, ELEMENT, TEXT } from '../dom/node.js';
import { SelectorList, isSelector, type Selector } from '../selector/index.js';
import { FollowTargetError } from './http-errors.js';

/** A link to follow: an href, a Selector, or anything with a `url` (a Request, a link extractor's Link). */
export type FollowTarget = string | Selector | { readonly url: string };

function stripHtml5Whitespace(text: string): string {
  return text.replace(/^[ \t\n\r\f]+|[ \t\n\r\f]+$/g, '');
}

/** The href a Selector stands for; throws FollowTargetError when it has none. */
function linkOfSelector(selector: Selector): string {
  const root = selector.root;
  if (typeof root === 'string') return stripHtml5Whitespace(root);
  if (typeof root === 'object' && (root.kind === ATTRIBUTE || root.kind === TEXT)) return stripHtml5Whitespace(root.data);
  if (typeof root !== 'object' || root.kind !== ELEMENT) {
    throw new FollowTargetError(`Unsupported selector: ${inspect(selector)} (select an <a> or <link> element, or an attribute such as ::attr(href))`);
  }
  if (root.name !== 'a' && root.name !== 'link') {
    throw new FollowTargetError(`Only <a> and <link> elements are supported; got <${root.name}> (select the attribute instead, e.g. ::attr(href))`);
  }
  const href = root.getAttr('href');
  if (href === null) throw new FollowTargetError(`<${root.name}> element has no href attribute: ${inspect(selector)}`);
  return stripHtml5Whitespace(href);
}

/** The href of one follow() target. */
export function linkOf(target: FollowTarget): string {
  if (typeof target === 'string') return target;
  if (target === null || target === undefined) throw new FollowTargetError("url can't be null or undefined: give follow() a URL, an href or a Selector");
  if (target instanceof SelectorList) {
    throw new FollowTargetError('SelectorList is not supported by follow(): pass one Selector (list[0]), or use followAll()');
  }
  if (isSelector(target)) return linkOfSelector(target);
  if (typeof target === 'object' && typeof (target as { url?: unknown }).url === 'string') return (target as { url: string }).url;
  throw new FollowTargetError(`Cannot follow ${inspect(target)}: give a URL string, a Selector, or an object with a url`);
}

/** The hrefs of the Selectors that have one, skipping the others (Scrapy's follow_all on a SelectorList). */
export function linksOfList(list: Iterable<Selector>): string[] {
  const links: string[] = [];
  for (const selector of list) {
    try {
      links.push(linkOfSelector(selector));
    } catch (error) {
      if (!(error instanceof FollowTargetError)) throw error;
    }
  }
  return links;
}
