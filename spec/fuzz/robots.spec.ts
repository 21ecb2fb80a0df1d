/**
 * Properties of robots.txt handling (src/robots): any text parses, and
 * allowed(), crawlDelay() and sitemaps() answer for any URL and User-Agent
 * without throwing; `Disallow: /` under `User-agent: *` forbids every path
 * of the origin to every User-Agent, and a named group forbids only the
 * User-Agents that contain its name (Protego's rule, which Scrapy 2.8 uses).
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { RobotsRules } from '../../src/robots/robots-rules.js';
import { anyString, configureFuzz, runs } from './fuzz-config.js';

configureFuzz({ numRuns: 300 });

const ROBOTS_URL = 'http://example.com/robots.txt';

const directive = fc.constantFrom('User-agent', 'user-AGENT', 'Disallow', 'Allow', 'Crawl-delay', 'Sitemap', 'Host', 'Noindex', 'disallow ', '');
const ruleValue = fc.oneof(
  fc.constantFrom('/', '*', '/*', '/$', '/a*b$', '/private/', '*.pdf$', '/%E9', '/é', '/a?b=c', 'seine', 'seine/1.0', '*bot', '1.5', '-1', 'NaN',
    'http://example.com/sitemap.xml', '', ' '),
  anyString(12),
);
const robotsLine = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(directive, fc.constantFrom(':', ': ', ' : ', ''), ruleValue, fc.constantFrom('', '', ' # comment', '#')).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: anyString(30) },
);
const robotsText = fc.oneof(
  fc.array(robotsLine, { maxLength: 14 }).chain((lines) => fc.constantFrom('\n', '\r\n', '\r').map((eol) => lines.join(eol))),
  anyString(200),
);
const userAgent = fc.oneof(fc.constantFrom('seine/0.1 (+https://www.npmjs.com/package/seine)', 'Mozilla/5.0 (compatible; seine/0.1)', 'Googlebot', '*', ''), anyString(20));
const path = fc.oneof(fc.constantFrom('', '/', '/private/x', '/a.pdf', '/a?b=c', '/%e9', '/é', '//x', '/../x', '/?', '/#f'), anyString(20));
const url = fc.oneof(
  path.map((p) => 'http://example.com' + (p.startsWith('/') ? p : '/' + p)),
  fc.constantFrom('https://example.com/', 'http://example.com:8080/', 'http://other.org/', 'ftp://example.com/', 'not a url', ''),
  anyString(30),
);

// Lines that start no group and set no rule: comments, blank lines, sitemaps, text without a colon.
const neutralLine = fc.oneof(
  fc.constantFrom('', '# robots', 'Sitemap: http://example.com/s.xml', 'Host: example.com', 'nonsense', '   '),
  fc.string({ maxLength: 20 }).map((text) => '# ' + text.replace(/[\r\n]/g, '')),
);

describe('robots.txt', () => {
  it('parses any text, and allowed(), crawlDelay() and sitemaps() answer any URL and User-Agent', () => {
    fc.assert(
      fc.property(robotsText, fc.array(fc.tuple(url, userAgent), { minLength: 1, maxLength: 5 }), (body, queries) => {
        const rules = new RobotsRules(ROBOTS_URL, body);
        for (const [target, agent] of queries) {
          expect(typeof rules.allowed(target, agent)).toBe('boolean');
          const delay = rules.crawlDelay(agent);
          if (delay !== undefined) expect(typeof delay).toBe('number');
        }
        for (const sitemap of rules.sitemaps()) expect(typeof sitemap).toBe('string');
      }),
      { numRuns: runs(800) },
    );
  });

  it("'Disallow: /' for '*' forbids every path of the origin to every User-Agent", () => {
    fc.assert(
      fc.property(fc.array(neutralLine, { maxLength: 5 }), fc.array(neutralLine, { maxLength: 5 }), path, userAgent, (before, after, p, agent) => {
        const body = [...before, 'User-agent: *', 'Disallow: /', ...after].join('\n');
        const rules = new RobotsRules(ROBOTS_URL, body);
        const target = 'http://example.com' + (p.startsWith('/') ? p : '/' + p);
        expect(rules.allowed(target, agent)).toBe(false);
        // Other origins are not this file's business.
        expect(rules.allowed('http://other.org' + (p.startsWith('/') ? p : '/' + p), agent)).toBe(true);
      }),
      { numRuns: runs(600) },
    );
  });

  it('a named group forbids the User-Agents that contain its name, and no other', () => {
    const name = fc.string({ unit: fc.constantFrom(...'abcxyz-_'.split('')), minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(name, fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), path, (group, prefix, suffix, p) => {
        const rules = new RobotsRules(ROBOTS_URL, `User-agent: ${group}\nDisallow: /\n`);
        const target = 'http://example.com' + (p.startsWith('/') ? p : '/' + p);
        const agent = prefix + group.toUpperCase() + suffix;
        expect(rules.allowed(target, agent)).toBe(false);
        const stranger = '0.1 ' + prefix.replace(/[^0-9 ]/g, ''); // no letter, so it cannot contain the name
        expect(rules.allowed(target, stranger)).toBe(true);
      }),
      { numRuns: runs(500) },
    );
  });

  it('a versioned group (name/1.0) applies to User-Agents with that whole name, not to other versions', () => {
    const name = fc.string({ unit: fc.constantFrom(...'abcxyz-_'.split('')), minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(name, fc.constantFrom('1.0', '2', '0.1.2'), fc.string({ maxLength: 6 }), path, (group, version, suffix, p) => {
        const rules = new RobotsRules(ROBOTS_URL, `User-agent: ${group}/${version}\nDisallow: /\n`);
        const target = 'http://example.com' + (p.startsWith('/') ? p : '/' + p);
        expect(rules.allowed(target, `${group}/${version}${suffix}`)).toBe(false);
        expect(rules.allowed(target, `${group}/9.9`)).toBe(true);
      }),
      { numRuns: runs(300), examples: [['seine', '1.0', '', '/']] },
    );
  });
});
