/**
 * The processes that carry an environment variable, read from /proc: a
 * test gives seine `SEINE_TEST_MARK=<unique>` and every process it starts —
 * the browser, its renderers, GPU and utility processes, the crash handlers
 * Chromium detaches from its tree — inherits it. Zombies (exited, not yet
 * reaped) are not running and are left out.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface MarkedProcess {
  readonly pid: number;
  readonly command: string;
}

export function markedProcesses(name: string, value: string): MarkedProcess[] {
  const needle = `${name}=${value}`;
  const found: MarkedProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      if (!environ.includes(needle)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (state === 'Z' || state === 'X') continue;
      found.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, 'latin1').replaceAll('\0', ' ').trim() });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return null;
  }
}

function running(pid: number): MarkedProcess | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    if (state === 'Z' || state === 'X') return null;
    return { pid, command: readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ').trim() };
  } catch {
    return null;
  }
}

/**
 * Chromium's zygote starts its renderers and GPU process with a cleaned
 * environment, so they do not carry the mark: they are found as descendants
 * of marked processes. The watcher looks every 50 ms while a crawl runs and
 * remembers every process it saw, so that after the crawl those orphaned by
 * a dying browser (reparented to init) are still checked.
 */
export class ProcessWatcher {
  readonly seen = new Map<number, string>();
  readonly #timer: NodeJS.Timeout;

  constructor(readonly name: string, readonly value: string) {
    this.#timer = setInterval(() => this.look(), 50);
    // A test that fails before leftRunning() must not keep jest alive.
    this.#timer.unref();
    this.look();
  }

  /** The marked processes and their descendants now. */
  look(): MarkedProcess[] {
    const marked = markedProcesses(this.name, this.value);
    const pids = new Set(marked.map((process) => process.pid));
    let grew = true;
    const all = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number);
    while (grew) {
      grew = false;
      for (const pid of all) {
        if (pids.has(pid)) continue;
        const parent = parentOf(pid);
        if (parent !== null && pids.has(parent)) {
          pids.add(pid);
          grew = true;
        }
      }
    }
    const now = [...pids].flatMap((pid) => running(pid) ?? []);
    for (const process of now) this.seen.set(process.pid, process.command);
    return now;
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Polls until none of the processes ever seen runs, or `timeoutMs` passed; stops watching; returns those still running. */
  async leftRunning(timeoutMs: number): Promise<MarkedProcess[]> {
    this.look();
    this.stop();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const left = [...this.seen.keys()].flatMap((pid) => {
        const now = running(pid);
        // A pid reused by an unrelated process since is not ours.
        return now !== null && now.command === this.seen.get(pid) ? [now] : [];
      });
      if (left.length === 0 || Date.now() >= deadline) return left;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
