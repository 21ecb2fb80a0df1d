/**
 * The spider the shell and the fetch/view commands use when no spider of
 * the project handles the URL: Scrapy's DefaultSpider, named `default`.
 */
import { Spider } from '../contracts/spider.js';

export class DefaultSpider extends Spider {
  static override name = 'default';
}
