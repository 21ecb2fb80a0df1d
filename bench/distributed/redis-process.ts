/**
 * A redis-server of the benchmark's own, on a free port of 127.0.0.1 with
 * nothing saved to disk, stopped when the benchmark ends; and the figures
 * the benchmark reads from it (INFO: commands, bytes and CPU since the last
 * reset, memory of a key).
 */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface RedisFigures {
  /** Round trips that ran a Lua script (EVALSHA, EVAL): what a worker sends. */
  readonly scripts: number;
  /** Commands Redis ran, those inside the scripts included (INFO, CONFIG and the benchmark's own reads left out). */
  readonly commands: number;
  /** Bytes in and out of Redis over the network. */
  readonly bytes: number;
  /** Redis's own CPU time, user + system, in seconds. */
  readonly cpuSeconds: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export function redisServerVersion(): string | null {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? (/v=(\S+)/.exec(probe.stdout)?.[1] ?? probe.stdout.trim()) : null;
}

export class BenchRedis {
  private constructor(
    readonly url: string,
    readonly process: ChildProcess,
    readonly client: Redis,
  ) {}

  static async start(): Promise<BenchRedis> {
    const port = await freePort();
    const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: 'ignore' });
    const url = `redis://127.0.0.1:${port}/0`;
    // The server takes a moment to listen: the client retries every 100 ms until it answers (5 s at most).
    const client = new Redis(url, { retryStrategy: (times) => (times > 50 ? null : 100) });
    client.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      client.once('ready', () => resolve());
      client.once('end', () => reject(new Error(`redis-server did not answer at ${url}`)));
    });
    return new BenchRedis(url, child, client);
  }

  /** Empties Redis and zeroes its counters before a run. */
  async reset(): Promise<void> {
    await this.client.flushall();
    await this.client.config('RESETSTAT');
  }

  async figures(): Promise<RedisFigures> {
    const info = await this.client.info('all');
    const field = (name: string): number => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
    let commands = 0;
    let scripts = 0;
    for (const match of info.matchAll(/^cmdstat_(\w+(?:\|\w+)?):calls=(\d+)/gm)) {
      if (/^(info|config|flushall|memory|scard|hget$|keys)/.test(match[1]!)) continue;
      commands += Number(match[2]);
      if (/^eval/.test(match[1]!)) scripts += Number(match[2]);
    }
    return {
      scripts,
      commands,
      bytes: field('total_net_input_bytes') + field('total_net_output_bytes'),
      cpuSeconds: field('used_cpu_user') + field('used_cpu_sys'),
    };
  }

  /** Bytes Redis uses for one key (MEMORY USAGE, every element counted). */
  async keyBytes(key: string): Promise<number> {
    return Number((await this.client.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
  }

  async stop(): Promise<void> {
    this.client.disconnect();
    this.process.kill('SIGTERM');
    await new Promise((resolve) => this.process.once('exit', resolve));
  }
}
