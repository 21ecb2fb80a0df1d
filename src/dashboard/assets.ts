/**
 * The page's files: seine's own (src/dashboard/assets/, copied to
 * dist/dashboard/assets/ by scripts/build.mjs) and uPlot's bundled build,
 * resolved from seine's own node_modules at run time, so the page loads
 * nothing from a CDN and works offline.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';

/** True under the tests (and tsx), where seine runs from its TypeScript sources. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const OWN_ASSETS = join(PACKAGE_ROOT, FROM_SOURCE ? 'src' : 'dist', 'dashboard', 'assets');

export interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

function uplotFile(name: string): string {
  const requireHere = createRequire(join(PACKAGE_ROOT, 'package.json'));
  return join(requireHere.resolve('uplot/package.json'), '..', 'dist', name);
}

/** The URL paths the page asks for, and where each file is. A fixed list: no path from a request reaches the disk. */
const FILES: Record<string, () => string> = {
  'dashboard.html': () => join(OWN_ASSETS, 'dashboard.html'),
  'service.html': () => join(OWN_ASSETS, 'service.html'),
  'dashboard.js': () => join(OWN_ASSETS, 'dashboard.js'),
  'service.js': () => join(OWN_ASSETS, 'service.js'),
  'dashboard.css': () => join(OWN_ASSETS, 'dashboard.css'),
  'uplot.js': () => uplotFile('uPlot.iife.min.js'),
  'uplot.css': () => uplotFile('uPlot.min.css'),
};

const cache = new Map<string, Asset>();

/** The asset named `name` (e.g. 'uplot.js'), or undefined for a name not on the list. */
export function dashboardAsset(name: string): Asset | undefined {
  const locate = FILES[name];
  if (locate === undefined) return undefined;
  let asset = cache.get(name);
  if (asset === undefined) {
    const path = locate();
    const dot = path.lastIndexOf('.');
    asset = { type: TYPES[path.slice(dot)] ?? 'application/octet-stream', body: readFileSync(path) };
    cache.set(name, asset);
  }
  return asset;
}
