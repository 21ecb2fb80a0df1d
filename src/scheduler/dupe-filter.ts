import type { Request } from '../http/request.js';
import { FingerprintSet } from './fingerprint-set.js';

/** Decides whether a request was seen before (Scrapy's DUPEFILTER_CLASS contract). */
export interface DupeFilter {
  /** True when an equivalent request was seen before; records `request` as seen otherwise. */
  seen(request: Request): boolean;
  /** Persists what `seen` recorded since the last call (the scheduler calls it once the request is queued). */
  flush?(): void;
  /** Records fingerprints as seen (those of the requests a JOBDIR journal still holds). */
  restore?(fingerprints: Iterable<string>): void;
  /** Releases what the filter holds (a file, a connection) when the crawl closes. */
  close?(reason: string): void | Promise<void>;
}

/** A request's fingerprint: equal strings mean "the same request" (Scrapy's request fingerprint). */
export type Fingerprint = (request: Request) => string;

/**
 * Scrapy's RFPDupeFilter in memory: a set of fingerprints. The fingerprint
 * function is given, so the filter does not depend on how fingerprints are
 * computed (src/http/fingerprint.ts, or a user's own). The set keeps a
 * hex fingerprint as its 20 bytes (src/scheduler/fingerprint-set.ts).
 */
export class FingerprintDupeFilter implements DupeFilter {
  readonly #fingerprints = new FingerprintSet();

  constructor(readonly fingerprint: Fingerprint) {}

  seen(request: Request): boolean {
    // One hash lookup instead of has() + add(): most candidate links of a crawl are duplicates.
    return !this.#fingerprints.add(this.fingerprint(request));
  }

  /** How many distinct requests were seen. */
  get size(): number {
    return this.#fingerprints.size;
  }
}
