import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deployVersion } from '../../src/deploy/deploy-version.js';

const NOW = () => 1_765_000_000_123;

describe('deployVersion (the version seine deploy uploads)', () => {
  let root: string;
  const git = (...args: string[]): string => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'seine-version-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('outside git: the Unix time in seconds, as scrapyd-deploy', () => {
    expect(deployVersion(root, undefined, undefined, NOW)).toBe('1765000000');
  });

  it('a clean git checkout: its short commit; with changes: the time again; --version and seine.cfg version win', () => {
    git('init', '-q');
    writeFileSync(join(root, 'seine.cfg'), '[settings]\n');
    git('add', 'seine.cfg');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'first');
    const commit = git('rev-parse', '--short', 'HEAD');
    expect(deployVersion(root, undefined, undefined, NOW)).toBe(commit);
    writeFileSync(join(root, 'spider.ts'), 'new');
    expect(deployVersion(root, undefined, undefined, NOW)).toBe('1765000000');
    // version = GIT in seine.cfg: the commit even with changes (scrapyd-deploy's GIT).
    expect(deployVersion(root, undefined, 'GIT', NOW)).toBe(commit);
    expect(deployVersion(root, undefined, 'r23', NOW)).toBe('r23');
    expect(deployVersion(root, 'v2', 'r23', NOW)).toBe('v2');
  });
});
