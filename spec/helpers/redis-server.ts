/**
 * A real redis-server for a test: started on a free loopback port with its
 * own folder (no snapshot, no append-only file unless asked), stopped after.
 * `npm test` installs the Debian package first (scripts/install-test-deps.sh).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from './free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** SIGSTOP: the server stops answering (an outage the clients cannot tell from a network that hangs). */
  freeze(): void;
  /** SIGCONT after freeze(). */
  thaw(): void;
  /** SIGKILLs the server and starts it again on the same port and folder (with `persistent`, its data survives). */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisOptions {
  /** An append-only file synced at every write: a restart loses nothing. */
  readonly persistent?: boolean;
}


export function redisServerPath(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v redis-server || ls /usr/bin/redis-server 2>/dev/null'], { encoding: 'utf8' });
  const path = found.stdout.trim().split('\n')[0] ?? '';
  return path === '' ? null : path;
}

function launch(binary: string, port: number, dir: string, persistent: boolean): ChildProcess {
  const persistence = persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  return spawn(binary, ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', ...persistence, '--daemonize', 'no', '--protected-mode', 'yes'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function whenReady(child: ChildProcess): Promise<{ ready: boolean; output: string }> {
  let output = '';
  return new Promise((resolve) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve({ ready: true, output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => resolve({ ready: false, output }));
    setTimeout(() => resolve({ ready: false, output }), 10_000).unref();
  });
}

export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  const binary = redisServerPath();
  if (binary === null) throw new Error('redis-server is not installed: `npm test` installs it (scripts/install-test-deps.sh), or run apt-get install redis-server');
  const dir = mkdtempSync(join(tmpdir(), 'seine-redis-'));
  const persistent = options.persistent ?? false;
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    let child = launch(binary, port, dir, persistent);
    const { ready, output } = await whenReady(child);
    if (ready) {
      const kill = async (): Promise<void> => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const stopped = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGCONT');
        child.kill('SIGKILL');
        await stopped;
      };
      return {
        url: `redis://127.0.0.1:${port}/0`,
        port,
        get process() {
          return child;
        },
        freeze: () => child.kill('SIGSTOP'),
        thaw: () => child.kill('SIGCONT'),
        restart: async (downMs = 0) => {
          await kill();
          if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
          child = launch(binary, port, dir, persistent);
          const again = await whenReady(child);
          if (!again.ready) throw new Error(`redis-server did not start again: ${again.output.trim().split('\n').slice(-3).join(' / ')}`);
        },
        stop: async () => {
          await kill();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    child.kill('SIGKILL');
    // Another process took the port between our probe and redis-server's bind: try another.
    if (attempt >= 3) throw new Error(`redis-server did not start: ${output.trim().split('\n').slice(-3).join(' / ')}`);
  }
}
