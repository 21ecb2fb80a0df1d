import { existsSync, readFileSync } from 'node:fs';

/**
 * Whether `pid` is alive and is still the program we think it is: its command
 * line (from /proc, where there is one) passes `isOurs`, so a pid the system
 * has given to another program since is not taken for ours. Without /proc on
 * a non-Linux system, alive is all that can be told.
 */
export function isOurProcessAlive(pid: number, isOurs: (commandLine: string[]) => boolean): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const cmdline = `/proc/${pid}/cmdline`;
  if (!existsSync(cmdline)) return process.platform !== 'linux';
  try {
    return isOurs(readFileSync(cmdline, 'utf8').split('\0'));
  } catch {
    return false;
  }
}
