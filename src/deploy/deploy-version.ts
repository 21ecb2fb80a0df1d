/**
 * The version a deploy uploads, by scrapyd-deploy's rule, with one change:
 * `--version` first, then seine.cfg's `version` ('GIT' means the commit), and
 * then, instead of always a timestamp, the short commit when the project is
 * a clean git checkout (a commit names exactly what was deployed), else the
 * Unix time in seconds as scrapyd-deploy uses.
 */
import { execFileSync } from 'node:child_process';

function git(root: string, args: readonly string[]): string | null {
  try {
    return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** The short commit of HEAD, or null outside git; `clean` also requires no changes under `root`. */
export function gitCommit(root: string, clean: boolean): string | null {
  const commit = git(root, ['rev-parse', '--short', 'HEAD']);
  if (commit === null || commit === '') return null;
  if (!clean) return commit;
  const status = git(root, ['status', '--porcelain', '--', '.']);
  return status === '' ? commit : null;
}

export function deployVersion(root: string, option: string | undefined, configured: string | undefined, now: () => number = Date.now): string {
  if (option !== undefined && option !== '') return option;
  if (configured !== undefined && configured.toUpperCase() === 'GIT') return gitCommit(root, false) ?? String(Math.floor(now() / 1000));
  if (configured !== undefined) return configured;
  return gitCommit(root, true) ?? String(Math.floor(now() / 1000));
}
