/**
 * Which spider handles a URL, as Scrapy's spidercls_for_request: among the
 * project's spiders, the one whose `allowedDomains` (or, without them, its
 * name) covers the URL's host; exactly one must match, otherwise — none, or
 * several — the default spider is used.
 */
import type { SpiderLoader } from '../project/spider-loader.js';
import type { SpiderClass } from '../contracts/spider.js';
import { DefaultSpider } from './default-spider.js';
import { isUrlFromDomain } from '../http/url/domain-match.js';

/** The domains a spider class claims: its name and its `allowedDomains` (read from an instance). */
function domainsOf(name: string, spiderClass: SpiderClass): string[] {
  let allowed: readonly string[] = [];
  try {
    allowed = new spiderClass({}).allowedDomains ?? [];
  } catch {
    // A spider whose constructor needs arguments cannot be asked; it handles no URL here.
  }
  return [name, ...allowed.filter((d): d is string => typeof d === 'string')];
}

export function spiderClassForUrl(loader: Pick<SpiderLoader, 'list' | 'find'> | null, url: string, fallback: SpiderClass = DefaultSpider): SpiderClass {
  if (loader === null) return fallback;
  const matches = loader
    .list()
    .map((name) => loader.find(name)!)
    .filter((found) => domainsOf(found.name, found.spiderClass).some((domain) => isUrlFromDomain(url, domain)));
  return matches.length === 1 ? matches[0]!.spiderClass : fallback;
}
