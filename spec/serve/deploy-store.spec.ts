import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { c as createTar } from 'tar';
import { packProject } from '../../src/deploy/pack-project.js';
import { ProjectVersions } from '../../src/serve/project-versions.js';
import { ensureBuilt } from '../cli/fixtures/run-seine.js';
import { makeProject, titlesSpider } from '../deploy/fixtures/deployable-project.js';

const TIMEOUT = 300_000;

async function tarOf(dir: string, entries: string[], options: { preservePaths?: boolean } = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of createTar({ gzip: true, cwd: dir, portable: true, ...options }, entries) as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('ProjectVersions (the deployed versions of seine serve)', () => {
  let dir: string;
  let tarball: Buffer;
  let project: string;

  beforeAll(async () => {
    expect(await ensureBuilt()).toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'seine-deploy-store-'));
    project = await makeProject(dir, 'shop', { titles: titlesSpider('titles', 'http://127.0.0.1:1/'), other: titlesSpider('other', 'http://127.0.0.1:1/') });
    tarball = (await packProject(project)).tarball;
  }, TIMEOUT);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('unpacks a version, installs its dependencies from the cache with npm offline, and lists its spiders with its own seine', async () => {
    const store = new ProjectVersions({ dir: join(dir, 'offline') });
    // What the test machine can do without the network: npm's cache already holds every package.
    process.env['npm_config_offline'] = 'true';
    try {
      expect(await store.add('shop', 'r1', tarball)).toEqual({ spiders: ['other', 'titles'] });
    } finally {
      delete process.env['npm_config_offline'];
    }
    const versionDir = join(dir, 'offline', 'projects', 'shop', 'r1');
    expect(existsSync(join(versionDir, 'node_modules', '.bin', 'seine'))).toBe(true);
    expect(existsSync(join(versionDir, 'shop', 'spiders', 'titles.ts'))).toBe(true);
    expect(store.projects()).toEqual(['shop']);
    expect(store.versions('shop')).toEqual(['r1']);
    expect(await store.spiders('shop')).toEqual(['other', 'titles']);
    const command = store.command('shop');
    expect(command).toEqual({ file: process.execPath, args: [join(versionDir, 'node_modules', '.bin', 'seine')], cwd: versionDir });
  }, TIMEOUT);

  it('orders versions by when they were added, the last one used by default; two uploads at once both land whole', async () => {
    const store = new ProjectVersions({ dir: join(dir, 'order') });
    await store.add('shop', 'zeta', tarball);
    // Two addversion calls for one project at once: each is prepared in its own hidden folder.
    await Promise.all([store.add('shop', 'alpha', tarball), store.add('shop', 'mid', tarball)]);
    const versions = store.versions('shop');
    expect(versions[0]).toBe('zeta');
    expect([...versions].sort()).toEqual(['alpha', 'mid', 'zeta']);
    for (const version of versions) expect(existsSync(join(dir, 'order', 'projects', 'shop', version, 'node_modules', '.bin', 'seine'))).toBe(true);
    expect(store.command('shop').cwd).toBe(join(dir, 'order', 'projects', 'shop', versions[2]!));
    expect(store.command('shop', 'zeta').cwd).toBe(join(dir, 'order', 'projects', 'shop', 'zeta'));

    // Re-adding a version replaces it and makes it the latest.
    await store.add('shop', 'zeta', tarball);
    expect(store.versions('shop').at(-1)).toBe('zeta');
    expect(store.versions('shop')).toHaveLength(3);

    // A job started from the replaced zeta may still run: its files stay (hidden) until the stale sweep.
    const projectDir = join(dir, 'order', 'projects', 'shop');
    const retired = readdirSync(projectDir).filter((name) => name.startsWith('.retired-'));
    expect(retired).toHaveLength(1);
    expect(existsSync(join(projectDir, retired[0]!, 'node_modules', '.bin', 'seine'))).toBe(true);

    await store.remove('shop', 'zeta');
    expect(store.versions('shop')).not.toContain('zeta');
    await expect(store.remove('shop', 'zeta')).rejects.toThrow("no version 'zeta' of project 'shop'");
    await store.remove('shop');
    expect(store.projects()).toEqual([]);
    await expect(store.remove('shop')).rejects.toThrow("no project named 'shop'");
    expect(() => store.command('shop')).toThrow("no project named 'shop'");
  }, TIMEOUT);

  it('deletes what a killed service left half made (hidden folders over an hour old) at the next upload, and only that', async () => {
    const store = new ProjectVersions({ dir: join(dir, 'stale') });
    const projectDir = join(dir, 'stale', 'projects', 'shop');
    mkdirSync(join(projectDir, '.incoming-old', 'node_modules'), { recursive: true });
    mkdirSync(join(projectDir, '.incoming-recent'), { recursive: true });
    const longAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(join(projectDir, '.incoming-old'), longAgo, longAgo);
    await store.add('shop', 'r1', tarball);
    expect(readdirSync(projectDir).sort()).toEqual(['.incoming-recent', 'r1']);
  }, TIMEOUT);

  it('rejects project and version names that would leave its folder', async () => {
    const store = new ProjectVersions({ dir: join(dir, 'names') });
    await expect(store.add('../evil', 'r1', tarball)).rejects.toThrow("the project name '../evil' holds a slash");
    await expect(store.add('..', 'r1', tarball)).rejects.toThrow("the project name '..' holds '..'");
    await expect(store.add('shop', 'a/b', tarball)).rejects.toThrow("the version name 'a/b' holds a slash");
    await expect(store.add('shop', 'r\0', tarball)).rejects.toThrow('the version name holds a NUL byte');
    await expect(store.add('shop', '.hidden', tarball)).rejects.toThrow("the version name '.hidden' starts with a dot");
    expect(existsSync(join(dir, 'evil'))).toBe(false);
    expect(store.projects()).toEqual([]);
  });

  it('rejects a tarball with ../ entries, absolute paths or symlinks, writing nothing', async () => {
    const store = new ProjectVersions({ dir: join(dir, 'hostile', 'service') });
    const work = join(dir, 'hostile', 'work');
    mkdirSync(join(work, 'inner'), { recursive: true });
    writeFileSync(join(work, 'escape.txt'), 'outside');
    writeFileSync(join(work, 'inner', 'package.json'), '{}');
    const dotdot = await tarOf(join(work, 'inner'), ['package.json', '../escape.txt'], { preservePaths: true });
    await expect(store.add('shop', 'r1', dotdot)).rejects.toThrow(
      "the tarball holds '../escape.txt', a path outside its folder: deploy with `seine deploy`, which packs only the project's own files",
    );
    const absolute = await tarOf(work, [join(work, 'escape.txt')], { preservePaths: true });
    await expect(store.add('shop', 'r1', absolute)).rejects.toThrow(/^the tarball holds the absolute path '\/.*escape\.txt'/);
    symlinkSync('/etc/passwd', join(work, 'inner', 'link'));
    const symlink = await tarOf(join(work, 'inner'), ['package.json', 'link']);
    await expect(store.add('shop', 'r1', symlink)).rejects.toThrow("the tarball holds 'link' of type SymbolicLink; only files and folders are unpacked");
    await expect(store.add('shop', 'r1', Buffer.from('not a tarball'))).rejects.toThrow(/^the upload is not a \.tar\.gz made by seine deploy/);
    expect(existsSync(join(dir, 'hostile', 'service', 'escape.txt'))).toBe(false);
    expect(store.projects()).toEqual([]);
    // Nothing half-made is left behind.
    expect(existsSync(join(dir, 'hostile', 'service', 'projects', 'shop'))).toBe(false);
  });

  it('refuses a tarball above its size limit', async () => {
    const store = new ProjectVersions({ dir: join(dir, 'limits'), limits: { maxUnpackedBytes: 1000, maxEntries: 100 } });
    await expect(store.add('shop', 'r1', tarball)).rejects.toThrow(/^the tarball unpacks to more than 1000 bytes/);
  });

  it("says in one line what npm ci found wrong", async () => {
    const store = new ProjectVersions({ dir: join(dir, 'npm-fails') });
    const work = join(dir, 'npm-fails-work');
    mkdirSync(work, { recursive: true });
    // A package.json that asks for a package the lockfile does not hold: npm ci refuses.
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    pkg.dependencies['left-pad'] = '1.3.0';
    writeFileSync(join(work, 'package.json'), JSON.stringify(pkg));
    writeFileSync(join(work, 'package-lock.json'), readFileSync(join(project, 'package-lock.json')));
    const error = await store.add('shop', 'r1', await tarOf(work, ['package.json', 'package-lock.json'])).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^npm ci failed: `npm ci` can only install packages when your package\.json and package-lock\.json/);
    expect((error as Error).message).not.toContain('\n');
    expect(store.projects()).toEqual([]);
  }, TIMEOUT);
});
