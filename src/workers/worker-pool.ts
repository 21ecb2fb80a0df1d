import { fork, type ChildProcess } from 'node:child_process';
import type { CoordinatorMessage, WorkerCall } from './worker-messages.js';
import { isBatch, WORKER_ENV } from './worker-messages.js';
import type { WorkerCommand } from './worker-launch.js';
import type { WorkerHub, WorkerProcesses } from './worker-hub.js';

// JSON: 'advanced' (V8's structured clone) took ~15 % more CPU over a CPU-bound crawl (docs/performance.md, "Both cores").
const SERIALIZATION = 'json';

interface Worker {
  readonly number: number;
  readonly child: ChildProcess;
  outbox: CoordinatorMessage[];
  exited: boolean;
}

/**
 * The worker processes of a `--workers N` crawl: each a fork of the
 * command the user ran, with WORKER_ENV set to its number. Their calls go
 * to the hub; the replies of one turn of the event loop go back as one
 * batch per worker. A worker that ends is reported to the hub once.
 */
export class WorkerPool implements WorkerProcesses {
  readonly #workers: Worker[] = [];
  #flushTimer: ReturnType<typeof setImmediate> | null = null;
  #hub: WorkerHub | null = null;
  #stopping = false;
  #allEnded: Promise<void> = Promise.resolve();

  constructor(
    readonly count: number,
    readonly command: WorkerCommand,
  ) {}

  get alive(): number {
    return this.#workers.filter((worker) => !worker.exited).length;
  }

  start(hub: WorkerHub): void {
    this.#hub = hub;
    const endings: Array<Promise<void>> = [];
    for (let number = 1; number <= this.count; number++) {
      const child = fork(this.command.module, [...this.command.args], {
        env: { ...process.env, [WORKER_ENV]: String(number) },
        execArgv: [...this.command.execArgv],
        // The workers log to the same standard error; nothing of theirs goes to standard output (a `-o -` feed is written here).
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        serialization: SERIALIZATION,
      });
      const worker: Worker = { number, child, outbox: [], exited: false };
      this.#workers.push(worker);
      child.on('message', (message: unknown) => this.#onMessage(worker, message));
      endings.push(
        new Promise<void>((resolve) => {
          child.on('exit', (code, signal) => {
            worker.exited = true;
            const how = signal !== null ? `(pid ${child.pid}) was killed (${signal})` : `(pid ${child.pid}) stopped with exit status ${code}`;
            hub.workerGone(number, how, code === 0);
            resolve();
          });
          child.on('error', () => undefined);
        }),
      );
    }
    this.#allEnded = Promise.all(endings).then(() => undefined);
  }

  send(worker: number, message: CoordinatorMessage): void {
    const target = this.#workers[worker - 1];
    if (target === undefined || target.exited) return;
    target.outbox.push(message);
    this.#flushTimer ??= setImmediate(() => this.#flush());
  }

  stopAll(): void {
    if (this.#stopping) return;
    this.#stopping = true;
    for (const worker of this.#workers) this.send(worker.number, { op: 'stop' });
    this.#flush();
  }

  ended(): Promise<void> {
    return this.#allEnded;
  }

  #onMessage(worker: Worker, message: unknown): void {
    const hub = this.#hub;
    if (hub === null || !isBatch<WorkerCall>(message)) return;
    for (const call of message) {
      let value: unknown;
      try {
        value = hub.handle(worker.number, call);
      } catch (error) {
        value = null;
        hub.crawler.logBus.getLogger('seine.workers').error(`A call of worker ${worker.number} failed: ${(error as Error).message}`);
      }
      worker.outbox.push({ op: 'reply', id: call.id, value: value ?? null });
    }
    this.#flushTimer ??= setImmediate(() => this.#flush());
  }

  #flush(): void {
    if (this.#flushTimer !== null) clearImmediate(this.#flushTimer);
    this.#flushTimer = null;
    for (const worker of this.#workers) {
      if (worker.outbox.length === 0) continue;
      const batch = worker.outbox;
      worker.outbox = [];
      if (!worker.exited && worker.child.connected) worker.child.send(batch, () => undefined);
    }
  }
}
