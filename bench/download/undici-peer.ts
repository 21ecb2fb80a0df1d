/**
 * undici for bench/download-micro.ts. It is not a dependency of seine (its
 * package.json and lockfile do not name it): it is installed on demand into
 * bench/.peers/undici/, a git-ignored folder with a package.json of its own,
 * with npm's ordinary client and no install scripts. undici 7 is the newest
 * line that supports Node 20 (undici 8 needs Node ≥ 22.19).
 *
 * Node's global `fetch` is a different copy: the undici bundled into Node
 * (`process.versions.undici`), measured as a client of its own.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const UNDICI_RANGE = '7.x';
export const PEER_DIR = fileURLToPath(new URL('../.peers/undici/', import.meta.url));

/** The part of undici's API the benchmark uses. */
export interface UndiciDispatcher {
  close(): Promise<void>;
}
export interface UndiciModule {
  Agent: new (options: { connections: number; keepAliveTimeout?: number }) => UndiciDispatcher;
  request(url: string, options: { dispatcher: UndiciDispatcher; method?: string }): Promise<{ statusCode: number; body: { arrayBuffer(): Promise<ArrayBuffer>; dump(): Promise<void> } }>;
}

/** The installed version, or null when undici is not installed there. */
export function installedUndici(): string | null {
  try {
    const resolved = createRequire(join(PEER_DIR, 'package.json')).resolve('undici/package.json');
    return (JSON.parse(readFileSync(resolved, 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
}

/** Installs undici into PEER_DIR unless it is there; returns its version, or throws with npm's last error line. */
export function ensureUndici(): string {
  const present = installedUndici();
  if (present !== null) return present;
  mkdirSync(PEER_DIR, { recursive: true });
  writeFileSync(join(PEER_DIR, 'package.json'), `${JSON.stringify({
    name: 'seine-bench-undici-peer',
    private: true,
    description: 'undici for seine\'s bench/download-micro.ts (written by bench/download/undici-peer.ts); not a dependency of seine',
    dependencies: { undici: UNDICI_RANGE },
  }, null, 2)}\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // A registry that cannot be reached fails within a minute instead of npm's default 5-minute timeouts.
  const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--fetch-retries=1', '--fetch-timeout=30000', '--loglevel=error'], { cwd: PEER_DIR, encoding: 'utf8' });
  const version = installedUndici();
  if (result.status !== 0 || version === null) {
    const lines = `${result.stderr ?? ''}\n${result.error?.message ?? ''}`.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('npm warn'));
    throw new Error(`npm install undici@${UNDICI_RANGE} in ${PEER_DIR} failed: ${lines.find((l) => /ERR|error/i.test(l)) ?? lines.at(-1) ?? `status ${result.status}`}`);
  }
  return version;
}

export async function importUndici(): Promise<UndiciModule> {
  if (!existsSync(join(PEER_DIR, 'package.json'))) throw new Error(`undici is not installed in ${PEER_DIR}`);
  const entry = createRequire(join(PEER_DIR, 'package.json')).resolve('undici');
  const module = (await import(pathToFileURL(entry).href)) as UndiciModule & { default?: UndiciModule };
  return typeof module.request === 'function' ? module : module.default!;
}
