import { describe, expect, it } from '@jest/globals';
import { Compose, Identity, ItemLoader, Join, MapCompose, Selector, SelectJmes, TakeFirst } from '../../src/index.js';

/** Values recorded from itemloaders 1.0.6 (Debian's python3-itemloaders) on the same page and calls. */

const HTML = `<html><body><div class="product"><h1> Red  shoe </h1><span class="price">$ 12.50</span>
<ul><li class="tag">red</li><li class="tag"> </li><li class="tag">shoe</li></ul>
<div class="seller"><span class="name">Ann's shop</span><span class="city">Bern</span></div></div></body></html>`;

interface Product {
  name: string;
  price: number;
  tags: string[];
  summary: string;
  seller: string;
  city: string;
  nothing?: string;
  missing?: string;
}

class ProductLoader extends ItemLoader<Product> {
  static override defaultOutputProcessor = new TakeFirst();
  static override fieldProcessors = {
    name: { input: new MapCompose((s: string) => s.trim(), (s: string) => s.split(/\s+/).join(' ')) },
    price: { input: new MapCompose((s: string) => s.replace('$', '').trim(), parseFloat) },
    tags: { input: new MapCompose((s: string) => s.trim(), (s: string) => s || null), output: new Identity() },
    summary: { output: new Join(' | ') },
  };
}

describe('ItemLoader', () => {
  it('fills a product from CSS and XPath queries through per-field and default processors, with nested loaders', () => {
    const loader = new ProductLoader({ selector: new Selector({ text: HTML }) });
    loader.addCss('name', 'h1::text').addCss('price', 'span.price::text').addCss('tags', 'li.tag::text');
    loader.addValue('summary', ['a', 'b']).addValue('summary', 'c').addValue('missing', null);
    const seller = loader.nestedCss('div.seller');
    seller.addCss('seller', 'span.name::text');
    seller.addXpath('city', 'span[@class="city"]/text()');
    loader.nestedCss('div.none').addCss('nothing', 'span::text');
    expect(loader.getCollectedValues('tags')).toEqual(['red', 'shoe']);
    const product: Product = loader.loadItem();
    expect(product).toEqual({ name: 'Red shoe', price: 12.5, tags: ['red', 'shoe'], summary: 'a | b | c', seller: "Ann's shop", city: 'Bern' });
  });

  it("an item's own values come first", () => {
    const loader = new ProductLoader({ item: { name: 'Given', tags: ['x'] }, selector: new Selector({ text: HTML }) });
    loader.addCss('name', 'h1::text').addCss('tags', 'li.tag::text');
    expect(loader.loadItem()).toEqual({ name: 'Given', tags: ['x', 'red', 'shoe'] });
  });

  it("a call's processors apply to the whole value before the field's input processor; replaceValue starts the field over", () => {
    const loader = new ItemLoader({ selector: new Selector({ text: '<h1> Red  shoe </h1>' }) });
    loader.addValue('data', { a: { b: [1, 2] } });
    loader.addValue('j', { a: { b: [1, 2] } }, new SelectJmes('a.b[1]'));
    loader.addCss('name', 'h1::text', new MapCompose((s: string) => s.toUpperCase()));
    loader.replaceValue('data', 'replaced');
    loader.addValue('c', [null, 'x', ''], new Compose((v: unknown[]) => v.slice(1)));
    expect(loader.loadItem()).toEqual({ j: [2], name: [' RED  SHOE '], data: ['replaced'], c: ['x', ''] });
  });

  it('processors as itemloaders has them', () => {
    expect(new TakeFirst().process(['', null, 0, 'a'])).toBe(0);
    expect(new Join().process(['a', 'b'])).toBe('a b');
    expect(new MapCompose((v: string) => [v, v]).process(['a', 'b'])).toEqual(['a', 'a', 'b', 'b']);
    expect(new Compose(() => null, () => 'x').process(['a'])).toBeNull();
    expect(new SelectJmes('items[?price > `10`].name').process({ items: [{ name: 'a', price: 5 }, { name: 'b', price: 12 }] })).toEqual(['b']);
  });

  it('MapCompose keeps every value of a processor that returns 200,000 of them (no argument spread)', () => {
    const values = new MapCompose((n: number) => Array.from({ length: n }, (_, i) => i)).process([200_000]);
    expect(values).toHaveLength(200_000);
    expect(values[199_999]).toBe(199_999);
  });

  it('takes processors among the functions of MapCompose and Compose (values from itemloaders 1.0.6)', () => {
    expect(new MapCompose(JSON.parse, new SelectJmes('a.b')).process(['{"a": {"b": 1}}', '{"a": {"b": [2, 3]}}', '{}'])).toEqual([1, 2, 3]);
    expect(new Compose(new TakeFirst(), (s: string) => s.toUpperCase()).process(['', 'x', 'y'])).toBe('X');
  });

  it('says which processor failed on which value', () => {
    const loader = new ItemLoader<{ n: number }>();
    const boom = (): never => {
      throw new TypeError('bad');
    };
    expect(() => loader.addValue('n', 'x', new MapCompose(boom))).toThrow(`Error with processor MapCompose value="x" error='Error in MapCompose with boom value="x" error='TypeError: bad''`);
    expect(() => new ItemLoader<{ a: string }>().addCss('a', 'p')).toThrow('ItemLoader.addCss() needs a selector: create the loader with { response } or { selector }');
  });

  it('is typed by its item', () => {
    const loader = new ItemLoader<Product>();
    // @ts-expect-error 'colour' is not a field of Product
    loader.addValue('colour', 'red');
    // @ts-expect-error nor here
    loader.getOutputValue('weight');
    const product: Product = new ItemLoader<Product>().addValue('name', 'x').loadItem();
    expect(product).toEqual({ name: ['x'] });
  });
});
