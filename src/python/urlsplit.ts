/**
 * Python 3.11's `urllib.parse.urlsplit` / `urlparse` / `urlunsplit` /
 * `urlunparse` and the netloc accessors (`hostname`, `port`, `username`,
 * `password`). w3lib builds safe and canonical URLs on these, so Scrapy's
 * fingerprints depend on their quirks: an empty `?` or `#` disappears,
 * `http:path` gains `//`, `;params` split off the last path segment.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { pythonRepr } from './str-repr.js';

/** What Python raises as ValueError while splitting; the message is Python's. */
export class UrlSplitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UrlSplitError';
  }
}

export interface SplitResult {
  scheme: string;
  netloc: string;
  path: string;
  query: string;
  fragment: string;
}

export interface ParseResult extends SplitResult {
  params: string;
}

const SCHEME_CHAR = /^[A-Za-z0-9+.-]+$/;
const USES_NETLOC = new Set(['', 'ftp', 'http', 'gopher', 'nntp', 'telnet', 'imap', 'wais', 'file', 'mms', 'https', 'shttp',
  'snews', 'prospero', 'rtsp', 'rtspu', 'rsync', 'svn', 'svn+ssh', 'sftp', 'nfs', 'git', 'git+ssh', 'ws', 'wss']);
const USES_PARAMS = new Set(['', 'ftp', 'hdl', 'prospero', 'http', 'imap', 'https', 'shttp', 'rtsp', 'rtspu', 'sip', 'sips',
  'mms', 'sftp', 'tel']);

/** Leading C0 controls and spaces go, and every tab, CR and LF (Python's WHATWG-inspired cleanup). */
function cleanInput(url: string): string {
  let start = 0;
  while (start < url.length && url.charCodeAt(start) <= 0x20) start++;
  const rest = start === 0 ? url : url.slice(start);
  return /[\t\r\n]/.test(rest) ? rest.replace(/[\t\r\n]/g, '') : rest;
}

export function urlsplit(input: string): SplitResult {
  let url = cleanInput(input);
  let scheme = '';
  let netloc = '';
  let query = '';
  let fragment = '';
  const colon = url.indexOf(':');
  if (colon > 0) {
    const first = url.charCodeAt(0);
    const alpha = (first >= 65 && first <= 90) || (first >= 97 && first <= 122);
    const candidate = url.slice(0, colon);
    if (alpha && SCHEME_CHAR.test(candidate)) {
      scheme = candidate.toLowerCase();
      url = url.slice(colon + 1);
    }
  }
  if (url.startsWith('//')) {
    let end = url.length;
    for (const delimiter of '/?#') {
      const at = url.indexOf(delimiter, 2);
      if (at >= 0 && at < end) end = at;
    }
    netloc = url.slice(2, end);
    url = url.slice(end);
    const open = netloc.includes('[');
    const close = netloc.includes(']');
    if (open !== close) throw new UrlSplitError('Invalid IPv6 URL');
    if (open && close) checkBracketedNetloc(netloc);
  }
  const hash = url.indexOf('#');
  if (hash >= 0) {
    fragment = url.slice(hash + 1);
    url = url.slice(0, hash);
  }
  const question = url.indexOf('?');
  if (question >= 0) {
    query = url.slice(question + 1);
    url = url.slice(0, question);
  }
  checkNetloc(netloc);
  return { scheme, netloc, path: url, query, fragment };
}

export function urlparse(input: string): ParseResult {
  const split = urlsplit(input);
  let path = split.path;
  let params = '';
  if (USES_PARAMS.has(split.scheme) && path.includes(';')) {
    let at: number;
    if (path.includes('/')) {
      at = path.indexOf(';', path.lastIndexOf('/'));
    } else {
      at = path.indexOf(';');
    }
    if (at >= 0) {
      params = path.slice(at + 1);
      path = path.slice(0, at);
    }
  }
  return { ...split, path, params };
}

export function urlunsplit(parts: SplitResult): string {
  const { scheme, netloc, query, fragment } = parts;
  let url = parts.path;
  if (netloc !== '' || (scheme !== '' && USES_NETLOC.has(scheme) && !url.startsWith('//'))) {
    if (url !== '' && url[0] !== '/') url = '/' + url;
    url = '//' + netloc + url;
  }
  if (scheme !== '') url = scheme + ':' + url;
  if (query !== '') url += '?' + query;
  if (fragment !== '') url += '#' + fragment;
  return url;
}

export function urlunparse(parts: ParseResult): string {
  const path = parts.params !== '' ? `${parts.path};${parts.params}` : parts.path;
  return urlunsplit({ scheme: parts.scheme, netloc: parts.netloc, path, query: parts.query, fragment: parts.fragment });
}

/** `_hostinfo`: the host as written (brackets removed) and the port text, each null when empty. */
export function hostInfo(netloc: string): { host: string | null; port: string | null; bracketed: boolean } {
  const hostinfo = netloc.slice(netloc.lastIndexOf('@') + 1);
  const open = hostinfo.indexOf('[');
  let host: string;
  let port: string;
  if (open >= 0) {
    const bracketed = hostinfo.slice(open + 1);
    const close = bracketed.indexOf(']');
    host = close >= 0 ? bracketed.slice(0, close) : bracketed;
    const after = close >= 0 ? bracketed.slice(close + 1) : '';
    const portColon = after.indexOf(':');
    port = portColon >= 0 ? after.slice(portColon + 1) : '';
  } else {
    const portColon = hostinfo.indexOf(':');
    host = portColon >= 0 ? hostinfo.slice(0, portColon) : hostinfo;
    port = portColon >= 0 ? hostinfo.slice(portColon + 1) : '';
  }
  return { host: host === '' ? null : host, port: port === '' ? null : port, bracketed: open >= 0 };
}

/** `hostname`: lower-cased, except an IPv6 zone after `%`. */
export function hostnameFromHost(host: string | null): string | null {
  if (host === null) return null;
  const percent = host.indexOf('%');
  return percent < 0 ? host.toLowerCase() : host.slice(0, percent).toLowerCase() + host.slice(percent);
}

/** `port`: the number, or null; Python's ValueError messages for text and out-of-range values. */
export function portOf(port: string | null): number | null {
  if (port === null) return null;
  if (!/^[0-9]+$/.test(port)) throw new UrlSplitError(`Port could not be cast to integer value as ${pythonRepr(port)}`);
  const value = Number(port);
  if (value > 65535) throw new UrlSplitError('Port out of range 0-65535');
  return value;
}

/** `username` and `password` (null when absent; the password is null without a `:`). */
export function userInfo(netloc: string): { username: string | null; password: string | null } {
  const at = netloc.lastIndexOf('@');
  if (at < 0) return { username: null, password: null };
  const info = netloc.slice(0, at);
  const colon = info.indexOf(':');
  return colon < 0 ? { username: info, password: null } : { username: info.slice(0, colon), password: info.slice(colon + 1) };
}

function checkBracketedNetloc(netloc: string): void {
  const hostAndPort = netloc.slice(netloc.lastIndexOf('@') + 1);
  const open = hostAndPort.indexOf('[');
  let host: string;
  if (open >= 0) {
    if (open > 0) throw new UrlSplitError('Invalid IPv6 URL');
    const bracketed = hostAndPort.slice(open + 1);
    const close = bracketed.indexOf(']');
    host = close >= 0 ? bracketed.slice(0, close) : bracketed;
    const after = close >= 0 ? bracketed.slice(close + 1) : '';
    if (after !== '' && !after.startsWith(':')) throw new UrlSplitError('Invalid IPv6 URL');
  } else {
    const colon = hostAndPort.indexOf(':');
    host = colon >= 0 ? hostAndPort.slice(0, colon) : hostAndPort;
  }
  if (host.startsWith('v')) {
    if (!/^v[a-fA-F0-9]+\..+$/s.test(host)) throw new UrlSplitError('IPvFuture address is invalid');
  } else if (isIPv4(host)) {
    throw new UrlSplitError('An IPv4 address cannot be in brackets');
  } else if (!isIPv6(host)) {
    throw new UrlSplitError(`${pythonRepr(host)} does not appear to be an IPv4 or IPv6 address`);
  }
}

/** Python refuses a non-ASCII netloc whose NFKC form hides a `/ ? # @ :` (e.g. U+2100 ℀ → a/c). */
function checkNetloc(netloc: string): void {
  if (netloc === '' || /^[\x00-\x7f]*$/.test(netloc)) return;
  const n = netloc.replace(/[@:#?]/g, '');
  const normalized = n.normalize('NFKC');
  if (n === normalized) return;
  if (/[/?#@:]/.test(normalized)) {
    throw new UrlSplitError(`netloc '${netloc}' contains invalid characters under NFKC normalization`);
  }
}
