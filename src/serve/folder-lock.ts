/**
 * One service per folder: `<dir>/serve.pid` holds the pid of the service
 * that runs from it. Two services on one folder would both launch its
 * pending jobs and overwrite each other's jobs.json. A file left by a
 * service that was killed (its pid gone, or now another program's) is
 * taken over.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isOurProcessAlive } from './process-alive.js';
import { ServeFolderBusyError } from './serve-errors.js';

function isServiceAlive(pid: number): boolean {
  return pid !== process.pid && isOurProcessAlive(pid, (args) => args.includes('serve'));
}

/** Takes the folder for this process; returns how to let it go. */
export function lockServiceFolder(dir: string): () => void {
  const file = join(dir, 'serve.pid');
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && isServiceAlive(pid)) {
      throw new ServeFolderBusyError(`another seine serve (pid ${pid}) runs from ${dir}: stop it, or give this one another --dir`);
    }
  }
  writeFileSync(file, `${process.pid}\n`);
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
}
