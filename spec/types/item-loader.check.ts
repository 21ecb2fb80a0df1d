/**
 * Type tests for ItemLoader's field names: `npx tsc --noEmit` (and so
 * `seine check` in a project) fails if an `@ts-expect-error` line stops being
 * an error. Imported from the public entry, as a project's spider does; the
 * bodies are declared, not run.
 */
import { ItemLoader, type Response } from '../../src/index.js';

class QuoteItem {
  text?: string;
  author?: string;
  tags: string[] = [];
}

export function itemLoaderFieldTypes(response: Response): QuoteItem {
  const loader = new ItemLoader<QuoteItem>({ response });
  loader.addCss('text', 'span.text::text').addCss('author', 'small.author::text').addXpath('tags', '//a[@class="tag"]/text()');
  // @ts-expect-error a misspelt field: QuoteItem has `author`
  loader.addCss('athor', 'small.author::text');
  // @ts-expect-error nor in addXpath
  loader.addXpath('athor', '//small/text()');
  // @ts-expect-error nor in replaceCss
  loader.replaceCss('tag', 'a.tag::text');
  // @ts-expect-error nor in replaceXpath
  loader.replaceXpath('txt', '//span/text()');
  // @ts-expect-error nor in addValue
  loader.addValue('athor', 'Jane Austen');
  // @ts-expect-error nor in replaceValue
  loader.replaceValue('athor', 'Jane Austen');
  // @ts-expect-error nor in getCollectedValues
  loader.getCollectedValues('athor');

  // Without an item type, any field name goes.
  new ItemLoader({ response }).addCss('anything', 'p::text');
  return loader.loadItem();
}
