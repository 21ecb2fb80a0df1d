/**
 * Starts a proxy daemon for a test (tinyproxy, danted) on a free loopback
 * port: writes its configuration for that port, waits for the line that says
 * it listens, tries another port when the one picked was taken meanwhile,
 * and stops it (SIGTERM, then SIGKILL) with its folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface ProxyDaemon {
  readonly port: number;
  /** Everything the daemon logged so far. */
  output(): string;
  stop(): Promise<void>;
}

export interface ProxyDaemonOptions {
  /** Names the daemon in errors and the temporary folder. */
  name: string;
  binary: string;
  /** The configuration file's text for a port. */
  config(port: number): string;
  /** The arguments, given the configuration file's path. */
  args(configFile: string): string[];
  /** Text the daemon logs once it listens. */
  readyText: string;
}

export async function startProxyDaemon(options: ProxyDaemonOptions): Promise<ProxyDaemon> {
  const dir = mkdtempSync(join(tmpdir(), `seine-${options.name}-`));
  const configFile = join(dir, `${options.name}.conf`);
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    writeFileSync(configFile, options.config(port));
    const child = spawn(options.binary, options.args(configFile), { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const ready = await new Promise<boolean>((resolve) => {
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        if (output.includes(options.readyText)) resolve(true);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', () => resolve(false));
      setTimeout(() => resolve(false), 10_000).unref();
    });
    if (ready) return { port, output: () => output, stop: () => stopChild(child, dir) };
    child.kill('SIGKILL');
    if (attempt < 3 && /in use/i.test(output)) continue;
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${options.name} did not start: ${output}`);
  }
}

async function stopChild(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dir, { recursive: true, force: true });
}
