/**
 * Three Scrapy spiders — a login form, a JSON API with a request copied as
 * curl, an ItemLoader product spider (fixtures/scrapy/*.py) — ported to
 * seine by translating names, crawled with `seine runspider` against the
 * local toolkit site. Their items must equal what the Scrapy originals
 * scraped from the same site (fixtures/ported-scrapy.json, recorded with
 * Scrapy 2.8 and itemloaders 1.0.6 by fixtures/record-ported.py).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, logMessages, runSeine } from '../cli/fixtures/run-seine.js';
import { startToolkitSite } from '../helpers/toolkit-site.js';
import type { TestSite } from '../helpers/site-server.js';

const TIMEOUT = 60_000;
const recorded = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'ported-scrapy.json'), 'utf8')) as Record<string, unknown[]>;

const PORTS: Record<string, string> = {
  login: `import { FormRequest, Request, Spider, type Response } from 'seine';

export class LoginSpider extends Spider {
  static name = 'login';
  declare base: string;

  async *start() {
    yield new Request(this.base + 'login');
  }

  parse(response: Response) {
    return FormRequest.fromResponse(response, {
      formid: 'login',
      formdata: { username: 'ann', password: 's3cret' },
      callback: this.afterLogin,
    });
  }

  *afterLogin(response: Response) {
    yield {
      user: response.css('h1.user::text').get(),
      lang: response.css('p.lang::text').get(),
    };
    for (const href of response.css('ul a::attr(href)').getall()) {
      yield response.follow(href, this.parseOrder, { cbKwargs: { via: response.url } });
    }
  }

  *parseOrder(response: Response, { via }: { via: string }) {
    yield {
      order: response.css('h2::text').get(),
      total: parseFloat(response.css('span.total::text').get()!.replace('$', '').trim()),
      via,
    };
  }
}
`,
  api: `import { JsonRequest, Request, Spider, type Response } from 'seine';

export class ApiSpider extends Spider {
  static name = 'api';
  declare base: string;

  async *start() {
    yield new JsonRequest(this.base + 'api/items', { data: { page: 1 } });
    yield Request.fromCurl(
      \`curl '\${this.base}api/item/3' -H 'Accept: application/json' -H 'X-Token: abc' --compressed\`,
      { callback: this.parseDetail },
    );
  }

  *parse(response: Response) {
    const answer = response.json() as { items: object[]; next: number | null };
    yield* answer.items;
    if (answer.next !== null) yield new JsonRequest(this.base + 'api/items', { data: { page: answer.next } });
  }

  *parseDetail(response: Response) {
    const data = response.json() as { id: number; detail: { colour: string; sizes: number[] } };
    yield { id: data.id, colour: data.detail.colour, sizes: data.detail.sizes };
  }
}
`,
  product: `import { Compose, Identity, ItemLoader, Join, MapCompose, Request, SelectJmes, Spider, TakeFirst, type Response } from 'seine';

const squash = (text: string) => text.split(/\\s+/).filter((word) => word !== '').join(' ');

interface Product {
  name: string;
  price: number;
  tags: string[];
  tag_count: number;
  about: string;
  stock: number;
  sku: string;
  url: string;
}

class ProductLoader extends ItemLoader<Product> {
  static override defaultOutputProcessor = new TakeFirst();
  static override fieldProcessors = {
    name: { input: new MapCompose(squash) },
    price: { input: new MapCompose((s: string) => s.replace('$', '').trim(), parseFloat) },
    tags: { input: new MapCompose((s: string) => s.trim(), (s: string) => s || null), output: new Identity() },
    about: { output: new Join(' ') },
    stock: { input: new MapCompose(JSON.parse, new SelectJmes('stock.count')) },
    sku: { input: new MapCompose(JSON.parse, new SelectJmes('sku')) },
    tag_count: { output: new Compose((values: unknown[]) => values.length) },
  };
}

export class ProductSpider extends Spider {
  static name = 'product';
  declare base: string;

  async *start() {
    yield new Request(this.base + 'products/');
  }

  parse(response: Response) {
    return response.followAll({ css: 'a.product', callback: this.parseProduct });
  }

  *parseProduct(response: Response) {
    const loader = new ProductLoader({ response });
    const product = loader.nestedCss('div.product');
    product.addCss('name', 'h1::text');
    product.addCss('price', 'span.price::text');
    product.addCss('tags', 'li.tag::text');
    product.addCss('tag_count', 'li.tag::text');
    product.addCss('about', 'p.about::text');
    product.addCss('stock', 'script#data::text');
    product.addCss('sku', 'script#data::text');
    loader.addValue('url', response.url);
    yield loader.loadItem();
  }
}
`,
};

let site: TestSite;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startToolkitSite();
  dir = mkdtempSync(join(tmpdir(), 'seine-ported-'));
}, 120_000);
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sorted as the recorder sorts Scrapy's items: by their JSON with sorted keys. */
function canonical(items: unknown[]): unknown[] {
  const sortedKeys = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(sortedKeys)
      : typeof value === 'object' && value !== null ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]))
        : value;
  return items.map(sortedKeys).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

describe('spiders ported from Scrapy scrape what the originals scraped', () => {
  for (const name of Object.keys(PORTS)) {
    it(`${name}: the same items as Scrapy's ${name}_spider.py`, async () => {
      writeFileSync(join(dir, `${name}.ts`), PORTS[name]!);
      const result = await runSeine(['runspider', `${name}.ts`, '-a', `base=${site.url('/')}`, '-O', `${name}.json`, '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
      expect(result.status).toBe(0);
      expect(logMessages(result.stderr).filter((line) => /ERROR|WARNING/.test(line))).toEqual([]);
      const items = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8').replaceAll(site.url('/'), 'BASE/')) as unknown[];
      expect(canonical(items)).toEqual(canonical(recorded[name]!));
      expect(items.length).toBeGreaterThan(2);
    }, TIMEOUT);
  }

  it('the login really depends on the form: without the CSRF field the account pages are not reached', async () => {
    writeFileSync(join(dir, 'nocsrf.ts'), PORTS['login']!.replace("formdata: { username: 'ann', password: 's3cret' }", "formdata: { username: 'ann', password: 's3cret', csrf_token: null }"));
    const result = await runSeine(['runspider', 'nocsrf.ts', '-a', `base=${site.url('/')}`, '-O', 'nocsrf.json', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(result.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'nocsrf.json'), 'utf8'))).toEqual([]);
    expect(logMessages(result.stderr).some((line) => line.includes('Ignoring response <403'))).toBe(true);
  }, TIMEOUT);
});
