import { describe, expect, it } from '@jest/globals';
import { getMetaRefresh } from '../../../src/middlewares/downloader/meta-refresh-tag.js';

const BASE = 'http://example.com/dir/page.html';

// Expected values are w3lib 2.1's get_meta_refresh on the same text (Scrapy 2.8).
describe('getMetaRefresh', () => {
  it('reads http-equiv before content', () => {
    expect(getMetaRefresh('<html><head><meta http-equiv="refresh" content="5;url=http://example.org/newpage" /></head></html>', BASE)).toEqual({
      interval: 5,
      url: 'http://example.org/newpage',
    });
  });

  it('reads content before http-equiv, case-insensitively, decoding &amp; and resolving against the base', () => {
    expect(getMetaRefresh('<meta content="0; URL=/relative?a=1&amp;b=2" http-equiv="Refresh">', BASE)).toEqual({
      interval: 0,
      url: 'http://example.com/relative?a=1&b=2',
    });
  });

  it('needs url=: a bare delay is no redirect', () => {
    expect(getMetaRefresh('<meta http-equiv="refresh" content="3">', BASE)).toBeNull();
  });

  it('reads fractional delays and strips quotes around the URL', () => {
    expect(getMetaRefresh(`<meta http-equiv="refresh" content="1.5; url='quoted.html'">`, BASE)).toEqual({ interval: 1.5, url: 'http://example.com/dir/quoted.html' });
  });

  it('ignores refreshes inside comments', () => {
    expect(getMetaRefresh('<!-- <meta http-equiv="refresh" content="0;url=/commented"> -->', BASE)).toBeNull();
    expect(getMetaRefresh('<!-- unclosed <meta http-equiv="refresh" content="0;url=/x">', BASE)).toBeNull();
  });

  it('searches inside <script> unless the tag is ignored', () => {
    const html = '<script><meta http-equiv="refresh" content="0;url=/script"></script>';
    expect(getMetaRefresh(html, BASE)).toEqual({ interval: 0, url: 'http://example.com/script' });
    expect(getMetaRefresh(html, BASE, ['script'])).toBeNull();
    expect(getMetaRefresh('<NOSCRIPT><meta http-equiv="refresh" content="0;url=/n"></NOSCRIPT>', BASE, ['noscript'])).toBeNull();
  });

  it('percent-encodes what a URL cannot hold', () => {
    expect(getMetaRefresh('<meta http-equiv="refresh" content="0;url=/a b/é">', BASE)?.url).toBe('http://example.com/a%20b/%C3%A9');
  });

  it('finds nothing in a page without a meta refresh', () => {
    expect(getMetaRefresh('<html><head><meta charset="utf-8"><title>t</title></head></html>', BASE)).toBeNull();
  });
});
