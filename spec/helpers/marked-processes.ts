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

/** Polls until no marked process is running or `timeoutMs` passed; returns those still running. */
export async function markedProcessesAfter(name: string, value: string, timeoutMs: number): Promise<MarkedProcess[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = markedProcesses(name, value);
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
