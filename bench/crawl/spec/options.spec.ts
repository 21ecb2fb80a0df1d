import { describe, expect, it } from '@jest/globals';
import { crawleeVersion, skippedLine } from '../crawlee-peer.js';
import { parseOptions } from '../run.js';

describe('bench:crawl options', () => {
  it('runs all three crawlers on 2,000 pages unless told otherwise', () => {
    expect(parseOptions([])).toEqual({ pages: 2000, rounds: 1, scrapy: true, crawlee: true, profile: false, keep: false, help: false });
    expect(parseOptions(['--no-crawlee', '--pages', '500'])).toMatchObject({ pages: 500, scrapy: true, crawlee: false });
    expect(parseOptions(['--no-scrapy', '--no-crawlee'])).toMatchObject({ scrapy: false, crawlee: false });
  });

  it('refuses a page count that is not a whole number ≥ 2, and unknown options', () => {
    expect(() => parseOptions(['--pages', '1.5'])).toThrow('--pages "1.5" is not a whole number ≥ 2; e.g. --pages 2000');
    expect(() => parseOptions(['--no-crawler'])).toThrow(/--no-crawler/);
  });

  it('takes a number of interleaved rounds, at least one', () => {
    expect(parseOptions(['--rounds', '3'])).toMatchObject({ rounds: 3 });
    expect(() => parseOptions(['--rounds', '0'])).toThrow('--rounds "0" is not a whole number ≥ 1; e.g. --rounds 3');
  });
});

describe('the Crawlee peer', () => {
  it('accepts only a recorded 3.18 installation', () => {
    expect(crawleeVersion('3.18.1\n')).toBe('3.18.1');
    expect(crawleeVersion('3.17.0\n')).toBeNull();
    expect(crawleeVersion('')).toBeNull();
    expect(crawleeVersion(null)).toBeNull();
  });

  it('says in one line why Crawlee was skipped and how to install it', () => {
    expect(skippedLine('npm install failed: npm error code ECONNREFUSED')).toBe(
      "Crawlee skipped: npm install failed: npm error code ECONNREFUSED; install it with 'bash bench/crawl/install-crawlee.sh' (needs the npm registry), or pass --no-crawlee",
    );
  });
});
