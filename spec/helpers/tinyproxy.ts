/**
 * A real HTTP proxy for a test: Debian's tinyproxy (plain requests and
 * CONNECT), started on a free loopback port with Basic auth when asked,
 * stopped after. `npm test` installs it (scripts/install-test-deps.sh).
 */
import { spawnSync } from 'node:child_process';
import { startProxyDaemon } from './proxy-daemon.js';

export interface TinyProxy {
  readonly port: number;
  /** `http://[user:pass@]127.0.0.1:port`. */
  readonly url: string;
  /** Everything tinyproxy logged so far (one line per request it served, at LogLevel Info). */
  output(): string;
  stop(): Promise<void>;
}

export function tinyproxyPath(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v tinyproxy || ls /usr/bin/tinyproxy /usr/sbin/tinyproxy 2>/dev/null'], { encoding: 'utf8' });
  const path = found.stdout.trim().split('\n')[0] ?? '';
  return path === '' ? null : path;
}

export async function startTinyproxy(options: { user?: string; password?: string } = {}): Promise<TinyProxy> {
  const binary = tinyproxyPath();
  if (binary === null) throw new Error('tinyproxy is not installed: `npm test` installs it (scripts/install-test-deps.sh), or run apt-get install tinyproxy');
  const daemon = await startProxyDaemon({
    name: 'tinyproxy',
    binary,
    config: (port) =>
      [
        `Port ${port}`, 'Listen 127.0.0.1', 'Timeout 30', 'MaxClients 100', 'LogLevel Info', 'Allow 127.0.0.1',
        ...(options.user === undefined ? [] : [`BasicAuth ${options.user} ${options.password ?? ''}`]),
      ].join('\n') + '\n',
    args: (conf) => ['-d', '-c', conf],
    readyText: 'listening on fd',
  });
  const auth = options.user === undefined ? '' : `${options.user}:${options.password ?? ''}@`;
  return { ...daemon, url: `http://${auth}127.0.0.1:${daemon.port}` };
}
