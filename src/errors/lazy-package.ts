import { createRequire } from 'node:module';
import { importDependency, loadDependency } from './dependency-missing-error.js';

/**
 * seine's one way of loading a package on first use, so that a command that
 * never needs it (`seine check -l`, a crawl without cookies or CSV) never
 * pays its start-up time. A package that cannot be loaded is a
 * DependencyMissingError naming it and what it was needed for, which stops
 * a crawl (src/engine/engine-state.ts, `failOn`).
 *
 * Packages are required from this file's place: src/ in a checkout, dist/
 * once built, both inside seine's package, so they resolve from seine's own
 * node_modules; the bundle (scripts/build.mjs) never sees these requires and
 * leaves the packages outside it.
 */

const requireHere = createRequire(import.meta.url);

/**
 * A getter for `packageName` (its CommonJS build, synchronously), required
 * by the first call and kept. A failed load is not kept: the next call
 * tries again, and fails the same way.
 */
export function lazyPackage<T>(packageName: string, purpose: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= loadDependency(packageName, purpose, () => requireHere(packageName) as T));
}

/**
 * A getter for a module of seine's own that imports a package (got's
 * client, the browser pool), imported by the first call; `load` is an
 * `import()` with the module's path written out, so that the bundle can
 * split it off. The promise is kept, failed or not: every caller gets the
 * same DependencyMissingError.
 */
export function lazyModule<T>(packageName: string, purpose: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= importDependency(packageName, purpose, load));
}
