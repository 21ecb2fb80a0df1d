import type { Request } from '../http/request.js';

/**
 * The proxy a rendered request goes through, as a URL with its credentials:
 * HttpProxyMiddleware moves `user:pass@` out of `meta.proxy` into a
 * Proxy-Authorization header, which Chromium never sends (it answers a 407
 * itself, from the context's proxy `username`/`password`, else fails with
 * ERR_INVALID_AUTH_CREDENTIALS). So a Basic header that belongs to this proxy
 * (`meta._auth_proxy`, or set by the user) is decoded back into the URL,
 * which browser-pool.ts turns into the context's proxy option.
 */
export function browserProxy(request: Request): string | null {
  const proxy = request.meta['proxy'];
  if (typeof proxy !== 'string' || proxy === '') return null;
  const header = request.headers.get('Proxy-Authorization');
  const basic = header === null ? null : /^Basic\s+(\S+)$/i.exec(header);
  if (basic === null) return proxy;
  const owner = request.meta['_auth_proxy'];
  if (typeof owner === 'string' && owner !== proxy) return proxy;
  let url: URL;
  try {
    url = new URL(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(proxy) ? proxy : `http://${proxy}`);
  } catch {
    return proxy;
  }
  if (url.username !== '') return proxy;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('latin1');
  const colon = decoded.indexOf(':');
  url.username = encodeURIComponent(colon === -1 ? decoded : decoded.slice(0, colon));
  url.password = encodeURIComponent(colon === -1 ? '' : decoded.slice(colon + 1));
  return url.href.replace(/\/$/, '');
}
