import { describe, expect, it } from '@jest/globals';
import { Spider } from '../../src/contracts/spider.js';
import { scrapySpellingWarnings } from '../../src/contracts/scrapy-spellings.js';
import { SitemapSpider } from '../../src/spiders/sitemap-spider.js';
import { XMLFeedSpider } from '../../src/spiders/xml-feed-spider.js';
import { Request } from '../../src/http/request.js';

describe('scrapySpellingWarnings', () => {
  it("names each Scrapy spelling with seine's, the class and the file", () => {
    class QuotesSpider extends Spider {
      static override name = 'quotes';
      static custom_settings = { DOWNLOAD_DELAY: 2 };
      start_urls = ['http://127.0.0.1:8000/'];
      allowed_domains = ['127.0.0.1'];
      download_delay = 2;
      user_agent = 'bot';
      handle_httpstatus_list = [404];
      *start_requests() {
        yield new Request('http://127.0.0.1:8000/');
      }
    }
    expect(scrapySpellingWarnings(new QuotesSpider(), 'tutorial/spiders/quotes.ts')).toEqual([
      'QuotesSpider.start_urls (tutorial/spiders/quotes.ts) is ignored: seine spells it startUrls',
      'QuotesSpider.allowed_domains (tutorial/spiders/quotes.ts) is ignored: seine spells it allowedDomains',
      'QuotesSpider.download_delay (tutorial/spiders/quotes.ts) is ignored: seine spells it downloadDelay',
      'QuotesSpider.user_agent (tutorial/spiders/quotes.ts) is ignored: seine spells it userAgent',
      'QuotesSpider.handle_httpstatus_list (tutorial/spiders/quotes.ts) is ignored: seine spells it handleHttpstatusList',
      'QuotesSpider.start_requests() (tutorial/spiders/quotes.ts) is never called: seine calls start() instead (an async generator: async *start() { … })',
      'QuotesSpider.custom_settings (tutorial/spiders/quotes.ts) is ignored: seine spells it static customSettings',
    ]);
  });

  it('reports startRequests(), a camel-cased start_requests(), and a customSettings that is not static; no file, no parentheses', () => {
    class Ported extends Spider {
      static override name = 'ported';
      customSettings = { DOWNLOAD_DELAY: 2 };
      async *startRequests() {
        yield new Request('http://127.0.0.1:8000/');
      }
    }
    expect(scrapySpellingWarnings(new Ported())).toEqual([
      'Ported.startRequests() is never called: seine calls start() instead (an async generator: async *start() { … })',
      'Ported.customSettings is ignored: seine reads customSettings from the class, before the spider is constructed: declare it static',
    ]);
  });

  it('leaves alone a start_requests() that the same class\'s start() calls, and a spider written for seine', () => {
    class Calls extends Spider {
      static override name = 'calls';
      override async *start() {
        yield* this.start_requests();
      }
      *start_requests() {
        yield new Request('http://127.0.0.1:8000/');
      }
    }
    class Clean extends Spider {
      static override name = 'clean';
      static override customSettings = { DOWNLOAD_DELAY: 2 };
      override startUrls = ['http://127.0.0.1:8000/'];
      override allowedDomains = ['127.0.0.1'];
      downloadDelay = 2;
    }
    expect(scrapySpellingWarnings(new Calls())).toEqual([]);
    expect(scrapySpellingWarnings(new Clean())).toEqual([]);
  });

  it("reports a generic spider class's names only on that class", () => {
    class Sitemap extends SitemapSpider {
      static override name = 'sitemap';
      sitemap_urls = ['http://127.0.0.1:8000/sitemap.xml'];
    }
    class Feed extends XMLFeedSpider {
      static override name = 'feed';
      parse_node() {
        return {};
      }
    }
    class Plain extends Spider {
      static override name = 'plain';
      sitemap_urls = ['http://127.0.0.1:8000/sitemap.xml'];
      parse_node() {
        return {};
      }
    }
    expect(scrapySpellingWarnings(new Sitemap())).toEqual(['Sitemap.sitemap_urls is ignored: seine spells it sitemapUrls']);
    expect(scrapySpellingWarnings(new Feed())).toEqual(['Feed.parse_node() is never called: seine calls parseNode() instead']);
    expect(scrapySpellingWarnings(new Plain())).toEqual([]);
  });
});
