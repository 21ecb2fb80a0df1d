import { describe, expect, it } from '@jest/globals';
import { looksLikeBareFileName, targetUrl } from '../../src/shell/target-url.js';

describe('targetUrl (what the shell makes of its target, as Scrapy guess_scheme)', () => {
  it.each([
    ['./page.html', 'file:///work/site/page.html'],
    ['../page.html', 'file:///work/page.html'],
    ['/abs/page.html', 'file:///abs/page.html'],
    ['file:///abs/page.html', 'file:///abs/page.html'],
    ['http://example.com/a?b=1', 'http://example.com/a?b=1'],
    ['https://example.com/', 'https://example.com/'],
    ['example.com', 'http://example.com'],
    ['index.html', 'http://index.html'],
    ['localhost:8000/x', 'http://localhost:8000/x'],
    ['data:text/html,<p>hi</p>', 'data:text/html,<p>hi</p>'],
  ])('%s → %s', (target, url) => {
    expect(targetUrl(target, '/work/site')).toBe(url);
  });

  it('says when a host name was probably meant as a file', () => {
    expect(looksLikeBareFileName('index.html')).toBe(true);
    expect(looksLikeBareFileName('example.com')).toBe(false);
    expect(looksLikeBareFileName('./index.html')).toBe(false);
  });
});
