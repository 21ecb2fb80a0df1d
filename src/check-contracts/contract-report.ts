/**
 * A check's results, printed as Scrapy's check command prints them (Python
 * unittest's text runner): one character per contract (`.`, `F`, `E`), or
 * with -v one line each (`[spider] method (@returns post-hook) ... ok`);
 * then every error and failure under a `=` rule, and the summary
 * (`Ran N contracts in X.XXXs`, `OK` or `FAILED (failures=n, errors=m)`).
 * Where unittest prints a traceback, the reason is one line, followed for an
 * error in the spider's own code by its frames in the project's files.
 */
import type { TextWriter } from '../log/sink.js';

const SEPARATOR_1 = '='.repeat(70);
const SEPARATOR_2 = '-'.repeat(70);

export interface ReportedProblem {
  readonly test: string;
  readonly reason: string;
}

export class ContractReport {
  readonly #out: TextWriter;
  readonly #verbose: boolean;
  // unittest's _newline: false while a `… ... ` line waits for its status.
  #lineEnded = true;
  testsRun = 0;
  readonly failures: ReportedProblem[] = [];
  readonly errors: ReportedProblem[] = [];

  constructor(out: TextWriter, verbose: boolean) {
    this.#out = out;
    this.#verbose = verbose;
  }

  /** A contract's hook begins (counted in "Ran N contracts"). */
  start(test: string): void {
    this.testsRun++;
    if (this.#verbose) {
      this.#out.write(`${test} ... `);
      this.#lineEnded = false;
    }
  }

  success(test: string): void {
    this.#status(test, 'ok', '.');
  }

  failure(test: string, reason: string): void {
    this.failures.push({ test, reason });
    this.#status(test, 'FAIL', 'F');
  }

  /** An error; for the callback, the errback or the contract's setup it comes without start(), as in Scrapy. */
  error(test: string, reason: string): void {
    this.errors.push({ test, reason });
    this.#status(test, 'ERROR', 'E');
  }

  get successful(): boolean {
    return this.failures.length === 0 && this.errors.length === 0;
  }

  /** The errors, then the failures, and the summary. */
  finish(seconds: number): void {
    const out = this.#out;
    out.write('\n');
    for (const [flavour, problems] of [['ERROR', this.errors], ['FAIL', this.failures]] as const) {
      for (const { test, reason } of problems) {
        out.write(`${SEPARATOR_1}\n${flavour}: ${test}\n${SEPARATOR_2}\n${reason}\n\n`);
      }
    }
    out.write(`${SEPARATOR_2}\nRan ${this.testsRun} contract${this.testsRun === 1 ? '' : 's'} in ${seconds.toFixed(3)}s\n\n`);
    if (this.successful) {
      out.write('OK\n');
      return;
    }
    const counts = [
      ...(this.failures.length > 0 ? [`failures=${this.failures.length}`] : []),
      ...(this.errors.length > 0 ? [`errors=${this.errors.length}`] : []),
    ];
    out.write(`FAILED (${counts.join(', ')})\n`);
  }

  #status(test: string, word: string, dot: string): void {
    if (!this.#verbose) {
      this.#out.write(dot);
      return;
    }
    if (this.#lineEnded) this.#out.write(`${test} ... `);
    this.#out.write(`${word}\n`);
    this.#lineEnded = true;
  }
}
