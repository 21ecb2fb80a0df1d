/**
 * Where Chromium comes from: PLAYWRIGHT_LAUNCH_OPTIONS.executablePath when
 * set, else the first of `chromium`, `chromium-browser`, `google-chrome`,
 * `google-chrome-stable` on PATH. seine downloads no browser.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { NoChromiumError } from './browser-errors.js';

export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'] as const;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function findChromium(configured: unknown, envPath: string | undefined = process.env['PATH']): string {
  if (typeof configured === 'string' && configured !== '') {
    if (executable(configured)) return configured;
    throw new NoChromiumError(`PLAYWRIGHT_LAUNCH_OPTIONS.executablePath is ${configured}, which is not an executable file: install Chromium there or fix the path`);
  }
  for (const dir of (envPath ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const name of CHROMIUM_NAMES) {
      const path = join(dir, name);
      if (executable(path)) return path;
    }
  }
  throw new NoChromiumError(
    `No Chromium found to render pages (looked for ${CHROMIUM_NAMES.join(', ')} on PATH): install one (Debian/Ubuntu: apt-get install chromium) or set PLAYWRIGHT_LAUNCH_OPTIONS = { executablePath: '/path/to/chrome' }`,
  );
}
