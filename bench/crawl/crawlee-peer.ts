/**
 * Crawlee 3.18, the benchmark's second peer, is not a dependency of seine:
 * install-crawlee.sh installs it into bench/crawl/.peers/crawlee/ (git-ignored,
 * with a package.json of its own), and bench:crawl runs that script only when
 * Crawlee is missing there. When it cannot be installed (no registry), the
 * benchmark says so in one line and measures the others.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..', '..');

/** Where install-crawlee.sh puts Crawlee (crawlee-spider.mjs loads it from there). */
export const CRAWLEE_DIR = join(HERE, '.peers', 'crawlee');
export const INSTALL_SCRIPT = join(HERE, 'install-crawlee.sh');
/** The Crawlee versions the benchmark measures: 3.18.x, as docs/performance.md's peer figures. */
export const CRAWLEE_SERIES = '3.18.';

/** An installation takes ~20 s; this only stops one that hangs. */
const INSTALL_TIMEOUT_MS = 5 * 60_000;

/** The version install-crawlee.sh recorded in `.installed`, if it is a 3.18 one; null when it must be (re)installed. */
export function crawleeVersion(installedFile: string | null): string | null {
  const version = installedFile?.trim() ?? '';
  return version.startsWith(CRAWLEE_SERIES) ? version : null;
}

function installed(dir: string): string | null {
  const stamp = join(dir, '.installed');
  if (!existsSync(stamp) || !existsSync(join(dir, 'node_modules', '@crawlee', 'cheerio', 'package.json'))) return null;
  return crawleeVersion(readFileSync(stamp, 'utf8'));
}

/** The line the benchmark prints when Crawlee is skipped because it could not be installed. */
export function skippedLine(reason: string): string {
  const script = relative(ROOT, INSTALL_SCRIPT);
  return `Crawlee skipped: ${reason}; install it with 'bash ${script}' (needs the npm registry), or pass --no-crawlee`;
}

/**
 * Crawlee's version, installing it first when it is missing (`log` says that
 * it is installing, since that takes a while); or why it cannot run.
 */
export function ensureCrawlee(log: (line: string) => void): { version: string } | { problem: string } {
  const present = installed(CRAWLEE_DIR);
  if (present !== null) return { version: present };
  log(`Crawlee ${CRAWLEE_SERIES}x is not installed in ${relative(ROOT, CRAWLEE_DIR)}/: installing it (${relative(ROOT, INSTALL_SCRIPT)})…`);
  const run = spawnSync('bash', [INSTALL_SCRIPT], { encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS });
  const version = installed(CRAWLEE_DIR);
  if (run.status === 0 && version !== null) {
    log(run.stdout.trim());
    return { version };
  }
  const why = (run.stderr || run.error?.message || `install-crawlee.sh exited with status ${run.status}`).trim().split('\n').at(-1)!;
  return { problem: skippedLine(why.replace(/^install-crawlee: /, '')) };
}
