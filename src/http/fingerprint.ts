/**
 * Scrapy 2.7+'s request fingerprint (`scrapy.utils.request.fingerprint`,
 * REQUEST_FINGERPRINTER_IMPLEMENTATION = '2.7'), as a hex string: the SHA-1
 * of `json.dumps({"body", "headers", "method", "url"}, sort_keys=True)` with
 * the URL canonicalized (w3lib's canonicalize_url), the body and the chosen
 * headers in hex. Equal fingerprints mean duplicate requests for dedupe; the
 * values equal Scrapy's (spec/fixtures/http/fingerprints.json, recorded by
 * scripts/record-request-fingerprints.py).
 *
 * Speed: the dedupe stage calls this once per candidate link (~70 per
 * page, most of them duplicates). Measured on the 2-core machine (Node 20,
 * scripts/bench-request-path.ts, noisy to ±30 %): ~1.7–2.9 µs per call on a
 * typical link (`http://127.0.0.1:8000/catalog/page-12.html?b=2&a=1`),
 * ~2.5–3.9 µs with a 6-argument query; `new Request` + fingerprint ~2.1 µs,
 * where Scrapy 2.8 takes ~38 µs for the same pair. Most of it is
 * canonicalization (~0.8 µs on its fast path) and the SHA-1 (~0.4 µs with
 * the one-shot `crypto.hash`; `createHash` cost ~1 µs). Scrapy caches the
 * result per request in a WeakKeyDictionary; here a WeakMap cache cost
 * ~0.5 µs per fresh request and saved nothing on the dedupe path, which
 * asks once per request, so there is none.
 */
import { hash } from 'node:crypto';
import type { Request } from './request.js';
import { canonicalizeUrl } from './url/canonicalize-url.js';

export interface FingerprintOptions {
  /** Header names whose values count (case-insensitive); none by default, as in Scrapy. */
  includeHeaders?: readonly string[];
  /** Keep the `#fragment` of the URL (default false: `page#a` and `page#b` are the same request). */
  keepFragments?: boolean;
}

// JSON string escaping as Python's json.dumps (ensure_ascii=True) writes it.
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\u0080-\uffff]/;
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

function pythonJsonString(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return '"' + text + '"';
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const code = text.charCodeAt(i);
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    else if (code < 0x20 || code > 0x7f) out += '\\u' + code.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

function headersJson(request: Request, names: readonly string[]): string {
  const entries = new Map<string, string[]>();
  for (const name of names) {
    const lower = name.toLowerCase();
    if (!request.headers.has(lower)) continue;
    const values = request.headers.getList(lower).map((value) => '"' + Buffer.from(value, 'utf8').toString('hex') + '"');
    entries.set(Buffer.from(lower, 'utf8').toString('hex'), values);
  }
  if (entries.size === 0) return '{}';
  const keys = [...entries.keys()].sort();
  return '{' + keys.map((key) => `"${key}": [${entries.get(key)!.join(', ')}]`).join(', ') + '}';
}

/** The request's fingerprint: 40 hex digits, equal to Scrapy 2.8's `fingerprint(request).hex()`. */
export function fingerprint(request: Request, options: FingerprintOptions = {}): string {
  const url = canonicalizeUrl(request.url, { keepFragments: options.keepFragments === true });
  const headers = options.includeHeaders === undefined ? '{}' : headersJson(request, options.includeHeaders);
  const body = request.body.length === 0 ? '' : request.body.toString('hex');
  const json = `{"body": "${body}", "headers": ${headers}, "method": ${pythonJsonString(request.method)}, "url": ${pythonJsonString(url)}}`;
  return hash('sha1', json, 'hex');
}

/**
 * fingerprint() with a cache for body-less GET requests, keyed by the URL
 * without its fragment (which the fingerprint leaves out): most candidate
 * links of a crawl are duplicates of a page seen a moment ago (the links
 * every page of a site shares, `page#item-3` and `page#item-4`), and the URL
 * alone decides their fingerprint. On the crawl benchmark (~75 links a page,
 * 98 % of them duplicates) ~98 % of the calls are hits, each saving ~3 µs of
 * canonicalization and SHA-1. The cache forgets everything when it holds
 * `size` URLs (~150 bytes each): cheaper than ordering entries, and the
 * links of the next pages refill it.
 */
export function cachedFingerprint(size = 1024): (request: Request) => string {
  const byUrl = new Map<string, string>();
  return (request) => {
    if (request.method !== 'GET' || request.body.length > 0) return fingerprint(request);
    const { url } = request;
    const fragment = url.indexOf('#');
    const key = fragment < 0 ? url : url.slice(0, fragment);
    let value = byUrl.get(key);
    if (value === undefined) {
      value = fingerprint(request);
      if (byUrl.size >= size) byUrl.clear();
      byUrl.set(key, value);
    }
    return value;
  };
}
