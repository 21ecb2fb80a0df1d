import { SeineError } from './seine-error.js';

/**
 * A package seine loads on first use (got with the first download,
 * tough-cookie with the first cookie, csv-parse, csv-stringify, ioredis,
 * re2-wasm) could not be loaded: an install that was cut short, or a
 * node_modules copied without it. Not the fault of a page: a crawl that
 * meets it stops (src/engine/engine-state.ts, `failOn`) instead of failing
 * every request the same way and saying `finished`.
 */
export class DependencyMissingError extends SeineError {
  static readonly code = 'SEINE_DEPENDENCY_MISSING';
  constructor(
    /** The package, as seine imports it: 'got', 'csv-parse/sync'. */
    readonly packageName: string,
    /** What seine needed it for: 'downloading pages'. */
    purpose: string,
    cause: unknown,
  ) {
    const reason = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0];
    super(
      DependencyMissingError.code,
      `The package '${packageName}', needed for ${purpose}, could not be loaded (${reason}): reinstall the project's packages (npm install)`,
      { cause },
    );
  }
}

export function isDependencyMissing(value: unknown): value is DependencyMissingError {
  return value instanceof DependencyMissingError;
}

/** `load()` (a require or import of `packageName`), with a failure reported as a DependencyMissingError. */
export function loadDependency<T>(packageName: string, purpose: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    throw new DependencyMissingError(packageName, purpose, error);
  }
}

/** The same for an `import()`. */
export async function importDependency<T>(packageName: string, purpose: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new DependencyMissingError(packageName, purpose, error);
  }
}
