/**
 * Python 3.11's `urllib.parse.urljoin`, which Scrapy's link extractor joins
 * links with. It differs from the WHATWG join that `response.urljoin()` uses
 * in ways that show in extracted links: `http://example.com` keeps its empty
 * path, `mailto:`/`javascript:` hrefs come back as written, and nothing is
 * percent-encoded here (safe_url_string does that afterwards). Throws
 * UrlSplitError where Python raises ValueError (an unbalanced `[` in the host).
 */
import { urlparse, urlunparse, type ParseResult } from './urlsplit.js';

const USES_RELATIVE = new Set(['', 'ftp', 'http', 'gopher', 'nntp', 'imap', 'wais', 'file', 'https', 'shttp', 'mms',
  'prospero', 'rtsp', 'rtspu', 'sftp', 'svn', 'svn+ssh', 'ws', 'wss']);
const USES_NETLOC = new Set(['', 'ftp', 'http', 'gopher', 'nntp', 'telnet', 'imap', 'wais', 'file', 'mms', 'https', 'shttp',
  'snews', 'prospero', 'rtsp', 'rtspu', 'rsync', 'svn', 'svn+ssh', 'sftp', 'nfs', 'git', 'git+ssh', 'ws', 'wss']);

// A page's links are all joined to the same one or two bases: the last base's parts are kept (read-only below).
let lastBase = '';
let lastBaseParts: ParseResult | null = null;

export function pythonUrljoin(base: string, url: string): string {
  if (base === '') return url;
  if (url === '') return base;
  if (base !== lastBase || lastBaseParts === null) {
    lastBaseParts = urlparse(base);
    lastBase = base;
  }
  const b = lastBaseParts;
  const u = urlparse(url);
  const scheme = u.scheme === '' ? b.scheme : u.scheme;
  let { netloc, path, params, query } = u;
  const { fragment } = u;
  if (scheme !== b.scheme || !USES_RELATIVE.has(scheme)) return url;
  if (USES_NETLOC.has(scheme)) {
    if (netloc !== '') return urlunparse({ scheme, netloc, path, params, query, fragment });
    netloc = b.netloc;
  }
  if (path === '' && params === '') {
    path = b.path;
    params = b.params;
    if (query === '') query = b.query;
    return urlunparse({ scheme, netloc, path, params, query, fragment });
  }
  const baseParts = b.path.split('/');
  if (baseParts[baseParts.length - 1] !== '') baseParts.pop();
  let segments: string[];
  if (path.startsWith('/')) {
    segments = path.split('/');
  } else {
    segments = [...baseParts, ...path.split('/')];
    // Empty inner segments would double slashes on re-joining.
    if (segments.length > 2) segments = [segments[0]!, ...segments.slice(1, -1).filter((s) => s !== ''), segments[segments.length - 1]!];
  }
  const resolved: string[] = [];
  for (const seg of segments) {
    if (seg === '..') resolved.pop();
    else if (seg !== '.') resolved.push(seg);
  }
  const last = segments[segments.length - 1];
  if (last === '.' || last === '..') resolved.push('');
  return urlunparse({ scheme, netloc, path: resolved.join('/') || '/', params, query, fragment });
}
