import { describe, expect, it } from '@jest/globals';
import { RobotsRules } from '../../src/robots/robots-rules.js';

const BODY = `User-agent: *
Disallow: /private/
Disallow: /*.pdf$
Allow: /private/public*
Disallow: /search?*q=
Disallow: /exact$

User-agent: seine
Disallow: /no-seine/

User-agent: seinebot
Disallow: /no-seinebot/
Allow: /

User-agent: GoogleBot/2.1
Disallow: /g/
`;

const PATHS = ['/private/x', '/private/public/a', '/doc.pdf', '/doc.pdf?x', '/search?lang=en&q=x', '/search?lang=en', '/exact', '/exact/more', '/no-seine/a', '/no-seinebot/a', '/g/x', '/'];

// Protego 0.1 (Scrapy 2.8's default parser) gave these for BODY: 1 = allowed.
const PROTEGO: Record<string, number[]> = {
  'seine/0.1 (+https://www.npmjs.com/package/seine)': [1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1],
  'Mozilla/5.0 (compatible; seine/0.1)': [1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1],
  seinebot: [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1],
  'MySeineBot/1.0': [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1],
  other: [0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1],
  'Googlebot/2.1 (+http://www.google.com/bot.html)': [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1],
};

describe('RobotsRules', () => {
  const rules = new RobotsRules('http://h/robots.txt', BODY);

  it.each(Object.entries(PROTEGO))('chooses the group and matches paths as Scrapy (Protego) does for %s', (userAgent, expected) => {
    expect(PATHS.map((path) => (rules.allowed(`http://h${path}`, userAgent) ? 1 : 0))).toEqual(expected);
  });

  it('handles * inside a path and $ at its end', () => {
    const wild = new RobotsRules('http://h/robots.txt', 'User-agent: *\nDisallow: /*/edit$\nDisallow: /tmp*.html\n');
    expect(wild.allowed('http://h/page/edit', 'x')).toBe(false);
    expect(wild.allowed('http://h/page/edit/', 'x')).toBe(true);
    expect(wild.allowed('http://h/page/editor', 'x')).toBe(true);
    expect(wild.allowed('http://h/tmp/a/b.html', 'x')).toBe(false);
    expect(wild.allowed('http://h/tmp/a/b.htm', 'x')).toBe(true);
  });

  it('files `User-agent: bot*` under bot too', () => {
    const star = new RobotsRules('http://h/robots.txt', 'User-agent: seine*\nDisallow: /\n');
    expect(star.allowed('http://h/a', 'seine/0.1')).toBe(false);
    expect(star.allowed('http://h/a', 'other')).toBe(true);
  });

  // Found by comparing RobotsRules with Protego 0.1 on generated files (spec/fuzz/robots.spec.ts's generator):
  // the group name was cut at '/' as robots-parser keys it, so `seine/1.0` applied to `seine/0.1`.
  it("matches a versioned group name whole, as Protego does ('User-agent: seine/1.0' is not for 'seine/0.1')", () => {
    const versioned = new RobotsRules('http://h/robots.txt', 'User-agent: seine/1.0\nDisallow: /\n');
    expect(versioned.allowed('http://h/a', 'seine/0.1')).toBe(true);
    expect(versioned.allowed('http://h/a', 'seine/1.0 (+https://example.com)')).toBe(false);
    expect(versioned.allowed('http://h/a', 'Mozilla/5.0 (compatible; seine/1.0)')).toBe(false);
  });

  it('allows everything when no group applies, for an empty file, and for URLs of another origin', () => {
    expect(new RobotsRules('http://h/robots.txt', 'User-agent: googlebot\nDisallow: /\n').allowed('http://h/a', 'seine')).toBe(true);
    expect(RobotsRules.allowAll('http://h/robots.txt').allowed('http://h/a', 'seine')).toBe(true);
    expect(new RobotsRules('http://h/robots.txt', 'User-agent: *\nDisallow: /\n').allowed('http://other/a', 'seine')).toBe(true);
  });

  it('reads Crawl-delay of the matching group and the sitemaps', () => {
    const delayed = new RobotsRules('http://h/robots.txt', 'User-agent: seine\nCrawl-delay: 2.5\n\nUser-agent: *\nCrawl-delay: 10\nSitemap: http://h/sitemap.xml\n');
    expect(delayed.crawlDelay('seine/0.1')).toBe(2.5);
    expect(delayed.crawlDelay('other')).toBe(10);
    expect(delayed.sitemaps()).toEqual(['http://h/sitemap.xml']);
  });
});
