/**
 * A real HTTP proxy for a test: Debian's tinyproxy (plain requests and
 * CONNECT), started on a free loopback port with Basic auth when asked,
 * stopped after. `npm test` installs it (scripts/install-test-deps.sh).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

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
  const dir = mkdtempSync(join(tmpdir(), 'seine-tinyproxy-'));
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const conf = join(dir, 'tinyproxy.conf');
    writeFileSync(conf, [
      `Port ${port}`, 'Listen 127.0.0.1', 'Timeout 30', 'MaxClients 100', 'LogLevel Info', 'Allow 127.0.0.1',
      ...(options.user === undefined ? [] : [`BasicAuth ${options.user} ${options.password ?? ''}`]),
    ].join('\n') + '\n');
    const child = spawn(binary, ['-d', '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const ready = await new Promise<boolean>((resolve) => {
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        if (output.includes('listening on fd')) resolve(true);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', () => resolve(false));
      setTimeout(() => resolve(false), 10_000).unref();
    });
    if (!ready) {
      child.kill('SIGKILL');
      if (attempt < 3 && /in use/i.test(output)) continue;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`tinyproxy did not start: ${output}`);
    }
    const auth = options.user === undefined ? '' : `${options.user}:${options.password ?? ''}@`;
    return {
      port,
      url: `http://${auth}127.0.0.1:${port}`,
      output: () => output,
      stop: () => stopChild(child, dir),
    };
  }
}

export async function stopChild(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dir, { recursive: true, force: true });
}
