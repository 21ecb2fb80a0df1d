/**
 * A URL's hostname as Python's `urlparse(url).hostname` gives it (lower
 * case, no user info, no port, IPv6 without brackets; '' when there is
 * none), which is Scrapy's default download slot key. A string scan instead
 * of `new URL()`: this runs for every request, and a slot key needs no
 * normalisation beyond Python's.
 */
export function urlHostname(url: string): string {
  const colon = url.indexOf(':');
  // Like urlparse, only `scheme://` starts an authority ('mailto:a@b' has none).
  if (colon === -1 || !url.startsWith('//', colon + 1)) return '';
  const start = colon + 3;
  let end = start;
  while (end < url.length) {
    const ch = url.charCodeAt(end);
    if (ch === 0x2f /* / */ || ch === 0x3f /* ? */ || ch === 0x23 /* # */) break;
    end++;
  }
  const at = url.lastIndexOf('@', end - 1);
  let host = at >= start ? url.slice(at + 1, end) : url.slice(start, end);
  const open = host.indexOf('[');
  if (open !== -1) {
    const close = host.indexOf(']', open);
    host = host.slice(open + 1, close === -1 ? undefined : close);
  } else {
    const port = host.indexOf(':');
    if (port !== -1) host = host.slice(0, port);
  }
  return host.toLowerCase();
}
