/**
 * Per-link cost of the request path: `new Request(url)` and `fingerprint()`
 * on the links of a typical listing page, in µs per call. The numbers quoted
 * in src/http/fingerprint.ts and src/http/url/safe-url-string.ts come from
 * this script:
 *
 *     node --import tsx scripts/bench-request-path.ts
 */
import { fingerprint } from '../src/http/fingerprint.js';
import { Request } from '../src/http/request.js';
import { canonicalizeUrl } from '../src/http/url/canonicalize-url.js';
import { safeUrlString } from '../src/http/url/safe-url-string.js';

const N = 200_000;
const plain = Array.from({ length: 1000 }, (_, i) => `http://127.0.0.1:8000/catalog/page-${i % 97}.html?b=${i % 7}&a=${i}`);
const longQuery = Array.from({ length: 1000 }, (_, i) => `https://shop.example.com/search?q=shoes&size=${i % 13}&color=red&sort=price&page=${i}&lang=en`);
const unsafe = Array.from({ length: 1000 }, (_, i) => `http://Shop.Example.com/r\u00e9sum\u00e9 ${i}/?q=caf\u00e9&x=${i}`);

function measure(label: string, run: (i: number) => unknown): void {
  for (let i = 0; i < 20_000; i++) run(i); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) run(i);
  const micros = Number(process.hrtime.bigint() - start) / 1000 / N;
  console.log(`${label.padEnd(48)} ${micros.toFixed(2)} µs`);
}

measure('safeUrlString, page link (full path)', (i) => safeUrlString(plain[i % 1000]!));
measure('new Request, page link (fast path)', (i) => new Request(plain[i % 1000]!));
measure('new Request, non-ASCII link (full path)', (i) => new Request(unsafe[i % 1000]!));
measure('canonicalizeUrl, page link', (i) => canonicalizeUrl(plain[i % 1000]!));
measure('canonicalizeUrl, 6-argument query', (i) => canonicalizeUrl(longQuery[i % 1000]!));
const requests = plain.map((url) => new Request(url));
const longRequests = longQuery.map((url) => new Request(url));
measure('fingerprint, page link', (i) => fingerprint(requests[i % 1000]!));
measure('fingerprint, 6-argument query', (i) => fingerprint(longRequests[i % 1000]!));
measure('new Request + fingerprint, page link', (i) => fingerprint(new Request(plain[i % 1000]!)));
