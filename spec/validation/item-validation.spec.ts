import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { Spider } from '../../src/contracts/spider.js';
import type { Response } from '../../src/http/response.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';

let site: TestSite;

beforeAll(async () => {
  site = await startSite({
    '/': '<html><body>' +
      '<div class="book"><b>Dune</b><i>12.50</i><u>Herbert</u></div>' +
      '<div class="book"><b>Emma</b><i>free</i><u>Austen</u></div>' +
      '<div class="book"><b>Ulysses</b><i>8</i></div>' +
      '<div class="book"><b></b><i>3</i><u>Anon</u></div>' +
      '</body></html>',
  });
});
afterAll(() => site.close());

const bookSchema = z.object({
  title: z.string().min(1),
  price: z.coerce.number(),
  author: z.string(),
  inStock: z.boolean().default(true),
});

function booksSpider(schema: unknown = bookSchema) {
  return class Books extends Spider {
    static override name = 'books';
    static itemSchema = schema;
    override startUrls = [site.url('/')];
    override *parse(response: Response) {
      for (const book of response.css('div.book')) {
        const author = book.css('u::text').get();
        yield { title: book.css('b::text').get() ?? '', price: book.css('i::text').get(), ...(author === null ? {} : { author }) };
      }
    }
  };
}

describe("a spider's static itemSchema", () => {
  it('drops items that fail (one WARNING naming the fields), counts each field and issue, and emits the parsed data of the others', async () => {
    const result = await runCrawl(booksSpider());
    expect(result.items).toEqual([{ title: 'Dune', price: 12.5, author: 'Herbert', inStock: true }]);
    expect(result.stats['validation/items_checked']).toBe(4);
    expect(result.stats['validation/items_failed']).toBe(3);
    expect(result.stats['validation/price/invalid_type']).toBe(1);
    expect(result.stats['validation/author/invalid_type']).toBe(1);
    expect(result.stats['validation/title/too_small']).toBe(1);
    expect(result.stats['item_dropped_count']).toBe(3);
    expect(result.stats['item_scraped_count']).toBe(1);
    const dropped = result.logs.filter((l) => l.level === 'WARNING' && l.message.startsWith('Dropped: Invalid item: '));
    expect(dropped.map((l) => l.message.split('\n')[0]!.replace(/: Invalid input.*?\)/g, ')'))).toEqual([
      'Dropped: Invalid item: price (invalid_type)',
      'Dropped: Invalid item: author (invalid_type)',
      'Dropped: Invalid item: title (too_small: Too small: expected string to have >=1 characters)',
    ]);
  });

  it("VALIDATION_FAILURES 'flag' keeps failing items as they were, with _validation listing each field's messages", async () => {
    const result = await runCrawl(booksSpider(), { VALIDATION_FAILURES: 'flag' });
    expect(result.items).toHaveLength(4);
    expect(result.items[1]).toEqual({ title: 'Emma', price: 'free', author: 'Austen', _validation: { price: ['Invalid input: expected number, received NaN'] } });
    expect(result.items[2]).toEqual({ title: 'Ulysses', price: '8', _validation: { author: ['Invalid input: expected string, received undefined'] } });
    expect(result.stats['validation/items_failed']).toBe(3);
    expect(result.stats['item_scraped_count']).toBe(4);
    expect(result.stats['item_dropped_count']).toBeUndefined();
  });

  it('costs nothing when the spider has no schema: no validation stats', async () => {
    const result = await runCrawl(booksSpider(null));
    expect(result.items).toHaveLength(4);
    expect(Object.keys(result.stats).filter((k) => k.startsWith('validation/'))).toEqual([]);
  });

  it('a schema without safeParse, or a bad VALIDATION_FAILURES, stops the crawl before any request with one line', async () => {
    site.reset();
    await expect(runCrawl(booksSpider({ parse() {} }))).rejects.toThrow(/^Books\.itemSchema has no safeParse\(value\) method: give a zod schema/);
    await expect(runCrawl(booksSpider(), { VALIDATION_FAILURES: 'keep' })).rejects.toThrow("VALIDATION_FAILURES must be 'drop' or 'flag', got \"keep\"");
    expect(site.hits).toEqual([]);
  });
});
