import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Request } from '../http/request.js';
import type { DupeFilter, Fingerprint } from './dupe-filter.js';
import { JobdirError } from './jobdir-errors.js';

export const SEEN_FILE = 'requests.seen';

/**
 * Scrapy's RFPDupeFilter with a JOBDIR: the fingerprints seen in earlier
 * runs are read from `<JOBDIR>/requests.seen` (one hex fingerprint per
 * line), and each new one is appended as it is seen, with one synchronous
 * write, so a crash loses none.
 */
export class JobdirDupeFilter implements DupeFilter {
  readonly #fingerprints = new Set<string>();
  readonly #file: string;
  #fd: number | null;

  constructor(
    readonly fingerprint: Fingerprint,
    jobdir: string,
  ) {
    this.#file = join(jobdir, SEEN_FILE);
    try {
      mkdirSync(jobdir, { recursive: true });
      this.#fd = openSync(this.#file, 'a+');
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
    if (this.#fingerprints.has(fingerprint)) return true;
    this.#fingerprints.add(fingerprint);
    if (this.#fd !== null) writeSync(this.#fd, `${fingerprint}\n`);
    return false;
  }

  close(): void {
    if (this.#fd === null) return;
    closeSync(this.#fd);
    this.#fd = null;
  }

  /** How many distinct requests were seen, in this run and the earlier ones. */
  get size(): number {
    return this.#fingerprints.size;
  }
}
