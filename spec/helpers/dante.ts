/**
 * A real SOCKS5 proxy for a test: Debian's dante-server (danted), started on a
 * free loopback port, stopped after. With a user, it asks for SOCKS5's
 * username/password method, which danted checks against the system's
 * accounts: the helper creates that account (tests run as root) with the
 * password given. `npm test` installs it (scripts/install-test-deps.sh).
 */
import { spawnSync } from 'node:child_process';
import { startProxyDaemon } from './proxy-daemon.js';

export interface Dante {
  readonly port: number;
  /** `socks5://[user:pass@]127.0.0.1:port`. */
  readonly url: string;
  output(): string;
  stop(): Promise<void>;
}

export function dantePath(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v danted || ls /usr/sbin/danted 2>/dev/null'], { encoding: 'utf8' });
  const path = found.stdout.trim().split('\n')[0] ?? '';
  return path === '' ? null : path;
}

/** A system account for danted's username method (created once, password set each time). */
function ensureAccount(user: string, password: string): void {
  if (spawnSync('id', [user]).status !== 0) {
    const made = spawnSync('useradd', ['-M', '-s', '/usr/sbin/nologin', user], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`Could not create the account ${user} for danted (tests must run as root): ${made.stderr}`);
  }
  const set = spawnSync('chpasswd', [], { input: `${user}:${password}\n`, encoding: 'utf8' });
  if (set.status !== 0) throw new Error(`Could not set the password of ${user} for danted: ${set.stderr}`);
}

export async function startDante(options: { user?: string; password?: string } = {}): Promise<Dante> {
  const binary = dantePath();
  if (binary === null) throw new Error('danted is not installed: `npm test` installs it (scripts/install-test-deps.sh), or run apt-get install dante-server');
  if (options.user !== undefined) ensureAccount(options.user, options.password ?? '');
  const daemon = await startProxyDaemon({
    name: 'dante',
    binary,
    config: (port) => [
      'logoutput: stderr',
      `internal: 127.0.0.1 port = ${port}`,
      'external: 127.0.0.1',
      `socksmethod: ${options.user === undefined ? 'none' : 'username'}`,
      'clientmethod: none',
      'user.privileged: root',
      'user.unprivileged: nobody',
      'client pass {\n  from: 127.0.0.0/8 to: 0.0.0.0/0\n}',
      // log: connect writes one line per tunnel it opens, which the tests count.
      'socks pass {\n  from: 127.0.0.0/8 to: 0.0.0.0/0\n  command: connect\n  log: connect\n}',
    ].join('\n') + '\n',
    args: (conf) => ['-f', conf, '-N', '1'],
    readyText: ' running',
  });
  const auth = options.user === undefined ? '' : `${options.user}:${options.password ?? ''}@`;
  return { ...daemon, url: `socks5://${auth}127.0.0.1:${daemon.port}` };
}
