/**
 * `[serve]` of the service folder's seine.cfg, with the command's options on
 * top: scrapyd's names (bind_address, http_port, username, password,
 * max_proc, max_proc_per_cpu, jobs_to_keep, finished_to_keep) and defaults.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parse } from 'ini';
import { ServeConfigError, ServeUnprotectedBindError } from './serve-errors.js';

export interface ServeConfig {
  /** The service's folder: its seine.cfg, jobs.json, logs/, items/ and the deployed versions. */
  readonly dir: string;
  readonly bind_address: string;
  readonly http_port: number;
  readonly username: string;
  readonly password: string;
  /** Jobs running at once: `max_proc`, or cores × `max_proc_per_cpu` when it is 0 (scrapyd's rule). */
  readonly max_proc: number;
  /** Logs and items kept per spider (the newest jobs'). */
  readonly jobs_to_keep: number;
  /** Finished jobs listjobs.json remembers. */
  readonly finished_to_keep: number;
}

export interface ServeOverrides {
  bind?: string;
  port?: number;
}

const DEFAULTS = { bind_address: '127.0.0.1', http_port: '6800', username: '', password: '', max_proc: '0', max_proc_per_cpu: '4', jobs_to_keep: '5', finished_to_keep: '100' };
type Key = keyof typeof DEFAULTS;

function readSection(dir: string): Record<string, string> {
  const file = join(dir, 'seine.cfg');
  if (!existsSync(file)) return {};
  let parsed: Record<string, unknown>;
  try {
    parsed = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ServeConfigError(`Could not read ${file}: ${(error as Error).message}`, { cause: error });
  }
  const section = (parsed['serve'] ?? {}) as Record<string, unknown>;
  const known = new Set(Object.keys(DEFAULTS));
  for (const key of Object.keys(section)) {
    if (!known.has(key)) throw new ServeConfigError(`${file}: [serve] has no option '${key}' (known: ${[...known].join(', ')})`);
  }
  return Object.fromEntries(Object.entries(section).map(([key, value]) => [key, String(value)]));
}

function count(name: Key, text: string, min: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min) throw new ServeConfigError(`[serve] ${name} = '${text}': expected a whole number ≥ ${min}`);
  return value;
}

export function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(address);
}

export function readServeConfig(dir: string, overrides: ServeOverrides = {}): ServeConfig {
  const values: Record<Key, string> = { ...DEFAULTS, ...readSection(dir) };
  if (overrides.bind !== undefined) values.bind_address = overrides.bind;
  if (overrides.port !== undefined) values.http_port = String(overrides.port);
  const maxProc = count('max_proc', values.max_proc, 0);
  const config: ServeConfig = {
    dir,
    bind_address: values.bind_address.trim(),
    http_port: count('http_port', values.http_port, 0),
    username: values.username,
    password: values.password,
    max_proc: maxProc > 0 ? maxProc : Math.max(1, cpus().length) * count('max_proc_per_cpu', values.max_proc_per_cpu, 1),
    jobs_to_keep: count('jobs_to_keep', values.jobs_to_keep, 1),
    finished_to_keep: count('finished_to_keep', values.finished_to_keep, 1),
  };
  if (config.username.includes(':')) throw new ServeConfigError(`[serve] username may not contain ':' (HTTP basic auth splits on it)`);
  if (!isLoopback(config.bind_address) && (config.username === '' || config.password === '')) {
    throw new ServeUnprotectedBindError(
      `refusing to bind ${config.bind_address} without a password: set username and password under [serve] in ${join(dir, 'seine.cfg')}, or bind 127.0.0.1`,
    );
  }
  return config;
}
