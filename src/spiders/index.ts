export { CrawlSpider } from './crawl-spider.js';
export { Rule, type RuleOptions, type RuleCallback, type ProcessLinks, type ProcessRequest } from './rule.js';
export { XMLFeedSpider, type XmlIterator } from './xml-feed-spider.js';
export { CSVFeedSpider } from './csv-feed-spider.js';
export { SitemapSpider, type SitemapRule } from './sitemap-spider.js';
export { Sitemap, sitemapUrlsFromRobots, type SitemapEntry } from './sitemap.js';
export { xmliter } from './xmliter.js';
export { csviter, type CsvIterOptions } from './csviter.js';
