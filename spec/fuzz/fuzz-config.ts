/**
 * Shared set-up of the property-based tests in spec/fuzz/ (fast-check).
 * Every file calls `configureFuzz()` at load: one fixed seed, so that CI
 * runs the same inputs every time (set SEINE_FUZZ_SEED to explore others,
 * SEINE_FUZZ_RUNS to run more), and a per-property time limit, so that the
 * folder stays within its budget on a slow machine: a property that hits the
 * limit stops early and passes with fewer runs rather than timing out.
 */
import fc from 'fast-check';
import { SeineError, isSeineError } from '../../src/errors/seine-error.js';

export const FUZZ_SEED = Number(process.env['SEINE_FUZZ_SEED'] ?? 42);
const RUNS_FACTOR = Number(process.env['SEINE_FUZZ_RUNS'] ?? 1);

/** `numRuns` scaled by SEINE_FUZZ_RUNS (a factor, default 1). */
export function runs(n: number): number {
  return Math.max(1, Math.round(n * RUNS_FACTOR));
}

export function configureFuzz(options: { numRuns?: number; timeLimitMs?: number } = {}): void {
  fc.configureGlobal({
    seed: FUZZ_SEED,
    numRuns: runs(options.numRuns ?? 200),
    // Stop a property's runs (passing) after this long; jest's own 5 s timeout stays above it.
    interruptAfterTimeLimit: options.timeLimitMs ?? 2000,
    markInterruptAsFailure: false,
  });
}

/** A seine error from another loaded copy of seine fails `instanceof`; its code still starts with SEINE_. */
function hasSeineCode(error: unknown): boolean {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SEINE_');
}

/**
 * Runs `work` and reports what came out: 'ok' with its value, or the error
 * when it is one of seine's own. Any other exception is rethrown, which
 * fails the property with that exception and its shrunk input.
 */
export function seineOutcome<T>(work: () => T): { ok: true; value: T } | { ok: false; error: SeineError } {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    if (isSeineError(error) || hasSeineCode(error)) return { ok: false, error: error as SeineError };
    throw error;
  }
}

/** Strings from every corner: printable ASCII, any UTF-16 (lone surrogates included), and full Unicode. */
export const anyString = (maxLength = 60): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
  );

/** Strings made by concatenating `pieces` (tokens of a grammar), with some arbitrary characters mixed in. */
export const tokenSoup = (pieces: readonly string[], maxLength = 12): fc.Arbitrary<string> =>
  fc.array(fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...pieces) }, { weight: 1, arbitrary: fc.string({ maxLength: 2 }) }), { maxLength }).map((parts) => parts.join(''));
