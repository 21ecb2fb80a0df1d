/**
 * The spider the shell and the fetch/view commands use when no spider of
 * the project handles the URL: Scrapy's DefaultSpider, named `default`.
 */
import { Spider } from '../contracts/spider.js';
import { SPIDER_CLASS_NAME } from '../contracts/spider-brand.js';

export class DefaultSpider extends Spider {
  static override name = 'default';
  /** What `<DefaultSpider 'default'>` names, also from the bundled dist/ (spider-brand.ts). */
  static readonly [SPIDER_CLASS_NAME] = 'DefaultSpider';
}
