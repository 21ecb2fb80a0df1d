import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CrawlSpider, LinkExtractor, Request, Rule } from '../../src/index.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';
import { hugeLinksPage } from '../helpers/huge-page.js';

/** A CrawlSpider on a page of 200,000 links: every link followed, and the event loop keeps turning meanwhile (issue 21). */

const LINKS = 200_000;
let site: TestSite;
beforeAll(async () => {
  site = await startSite({ '/': hugeLinksPage(LINKS) });
});
afterAll(async () => site.close());

describe('CrawlSpider rules on a page of 200,000 links', () => {
  it('makes a request for every link, with timers firing while the links are extracted and followed', async () => {
    const followed: string[] = [];
    let ticks = 0;
    let ticksWhileFollowing = 0;
    let longestGap = 0;
    let lastTick = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      ticks++;
      if (followed.length > 0 && followed.length < LINKS) {
        ticksWhileFollowing++;
        longestGap = Math.max(longestGap, now - lastTick);
      }
      lastTick = now;
    }, 5);
    class Wide extends CrawlSpider {
      static override name = 'wide';
      override startUrls = [site.url('/')];
      override rules = [new Rule(new LinkExtractor(), { processRequest: 'keepUrl' })];
      // Counted, not downloaded: the page's links are what this test is about.
      keepUrl(request: Request): null {
        followed.push(request.url);
        return null;
      }
    }
    try {
      const result = await runCrawl(Wide);
      expect(result.reason).toBe('finished');
    } finally {
      clearInterval(timer);
    }
    expect(followed).toHaveLength(LINKS);
    expect(followed[LINKS - 1]).toBe(site.url(`/p/${LINKS - 1}`));
    expect(ticks).toBeGreaterThan(0);
    // Several seconds of work: without slices no timer fires until the last link (ticksWhileFollowing 0).
    expect(ticksWhileFollowing).toBeGreaterThan(10);
    // A loose roof on one slice (about 50 ms on a quiet machine), for a shared CI box.
    expect(longestGap).toBeLessThan(1000);
  }, 60_000);
});
