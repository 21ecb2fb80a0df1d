import { closeSync, readFileSync, writeSync } from 'node:fs';
import { makePrivateDirSync, openPrivateFileSync } from '../private-files.js';
import { join } from 'node:path';
import type { Request } from '../http/request.js';
import type { DupeFilter, Fingerprint } from './dupe-filter.js';
import { FingerprintSet } from './fingerprint-set.js';
import { JobdirError } from './jobdir-errors.js';

export const SEEN_FILE = 'requests.seen';

/**
 * Scrapy's RFPDupeFilter with a JOBDIR: the fingerprints seen in earlier
 * runs are read from `<JOBDIR>/requests.seen` (one hex fingerprint per
 * line). A new one is appended with one synchronous write when the
 * scheduler calls `flush()`, after the request itself is in the queue's
 * journal: a process killed between the two has the request queued (its
 * journal line carries the fingerprint, given back through `restore()`),
 * never a fingerprint whose request is lost.
 */
export class JobdirDupeFilter implements DupeFilter {
  readonly #fingerprints = new FingerprintSet();
  readonly #file: string;
  readonly #unwritten: string[] = [];
  #fd: number | null;

  constructor(
    readonly fingerprint: Fingerprint,
    jobdir: string,
  ) {
    this.#file = join(jobdir, SEEN_FILE);
    try {
      makePrivateDirSync(jobdir);
      this.#fd = openPrivateFileSync(this.#file, 'a+', { tighten: true });
      for (const line of readFileSync(this.#file, 'utf8').split('\n')) {
        const trimmed = line.trimEnd();
        if (trimmed !== '') this.#fingerprints.add(trimmed);
      }
    } catch (error) {
      throw new JobdirError(`Cannot open the JOBDIR duplicate filter file ${this.#file}: ${(error as Error).message}`, { cause: error });
    }
  }

  seen(request: Request): boolean {
    const fingerprint = this.fingerprint(request);
    if (!this.#fingerprints.add(fingerprint)) return true;
    this.#unwritten.push(fingerprint);
    return false;
  }

  /** Writes the fingerprints seen since the last flush. */
  flush(): void {
    if (this.#unwritten.length === 0 || this.#fd === null) return;
    writeSync(this.#fd, `${this.#unwritten.join('\n')}\n`);
    this.#unwritten.length = 0;
  }

  /** Fingerprints of requests queued in the journal: known as seen, and written when missing from the file. */
  restore(fingerprints: Iterable<string>): void {
    for (const fingerprint of fingerprints) {
      if (this.#fingerprints.has(fingerprint)) continue;
      this.#fingerprints.add(fingerprint);
      this.#unwritten.push(fingerprint);
    }
    this.flush();
  }

  close(): void {
    if (this.#fd === null) return;
    this.flush();
    closeSync(this.#fd);
    this.#fd = null;
  }

  /** How many distinct requests were seen, in this run and the earlier ones. */
  get size(): number {
    return this.#fingerprints.size;
  }
}
