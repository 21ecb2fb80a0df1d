/**
 * The deployed projects of `seine serve`: `<dir>/projects/<project>/<version>/`,
 * each version a project unpacked from `seine deploy`'s tarball with its own
 * node_modules, so its spiders run with the seine its lockfile pins.
 *
 * A version is prepared in a hidden folder beside the others (same depth, so
 * the relative links npm writes stay right) and renamed into place only once
 * installed and listed: two uploads at once never see, or break, each
 * other's half-made folder. The order of versions is the order they were
 * added (a stamp file in each); scrapyd orders by comparing version names,
 * which a git commit or a timestamp does not allow, and like scrapyd the last
 * one is the one that runs when a job names none.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ProjectVersionStore } from './service-contracts.js';
import { DEFAULT_UNPACK_LIMITS, unpackTarball, type UnpackLimits } from './project-versions-unpack.js';
import { installDependencies, listSpiders, seineCommandIn } from './project-versions-install.js';

/** Written into each version folder when it is added. */
const STAMP_FILE = '.seine-version.json';
const HIDDEN_PREFIX = '.';
/**
 * A hidden folder older than this is deleted at the next upload: an install
 * or delete a killed service left (no upload takes this long: npm's limit is
 * 10 minutes), or a version replaced or deleted, kept this long because a
 * job started from it may still be running and load files from it (its
 * node_modules) — as scrapyd's running jobs outlive a deleted egg.
 */
const STALE_MS = 60 * 60_000;

/** Why `name` cannot be a project or version folder name, or null. */
export function badName(kind: 'project' | 'version', name: string): string | null {
  if (name === '') return `the ${kind} name is empty`;
  if (name.includes('\0')) return `the ${kind} name holds a NUL byte`;
  if (name.includes('/') || name.includes('\\')) return `the ${kind} name '${name}' holds a slash`;
  if (name === '.' || name === '..' || name.includes('..')) return `the ${kind} name '${name}' holds '..'`;
  if (name.startsWith(HIDDEN_PREFIX)) return `the ${kind} name '${name}' starts with a dot`;
  if (name.length > 200) return `the ${kind} name is longer than 200 characters`;
  return null;
}

function assertName(kind: 'project' | 'version', name: string): void {
  const problem = badName(kind, name);
  if (problem !== null) throw new Error(`${problem}: use letters, digits, '-', '_' and '.'`);
}

async function removeStale(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(HIDDEN_PREFIX)) continue;
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) await rm(path, { recursive: true, force: true });
    } catch {
      // Gone already: another upload swept it.
    }
  }
}

/**
 * Renames a version (or a project) to a hidden sibling, so it disappears from
 * the lists at once; its files stay for the jobs still using them until the
 * stale sweep. A sibling keeps the depth, so npm's relative links still hold.
 */
async function retire(path: string): Promise<void> {
  const retired = join(dirname(path), `${HIDDEN_PREFIX}retired-${randomBytes(6).toString('hex')}`);
  await rename(path, retired);
  const now = new Date();
  await utimes(retired, now, now);
}

export interface ProjectVersionsOptions {
  /** The service's folder; versions live under `<dir>/projects/`. */
  readonly dir: string;
  readonly limits?: UnpackLimits;
}

export class ProjectVersions implements ProjectVersionStore {
  readonly root: string;
  private readonly limits: UnpackLimits;
  private lastStamp = 0;

  constructor({ dir, limits = DEFAULT_UNPACK_LIMITS }: ProjectVersionsOptions) {
    this.root = join(dir, 'projects');
    this.limits = limits;
  }

  async add(project: string, version: string, tarball: Buffer): Promise<{ spiders: string[] }> {
    assertName('project', project);
    assertName('version', version);
    const projectDir = join(this.root, project);
    await mkdir(projectDir, { recursive: true });
    await Promise.all([removeStale(this.root), removeStale(projectDir)]);
    const incoming = join(projectDir, `${HIDDEN_PREFIX}incoming-${randomBytes(6).toString('hex')}`);
    try {
      await unpackTarball(tarball, incoming, this.limits);
      await installDependencies(incoming);
      const spiders = await listSpiders(incoming);
      // Strictly increasing, so two versions added in one millisecond keep their order.
      this.lastStamp = Math.max(Date.now(), this.lastStamp + 1);
      await writeFile(join(incoming, STAMP_FILE), JSON.stringify({ project, version, added: this.lastStamp, spiders }));
      await this.moveIntoPlace(incoming, join(projectDir, version));
      return { spiders };
    } catch (error) {
      await rm(incoming, { recursive: true, force: true });
      await this.dropIfEmpty(project);
      throw error;
    }
  }

  projects(): string[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root)
      .filter((name) => !name.startsWith(HIDDEN_PREFIX) && this.versions(name).length > 0)
      .sort();
  }

  versions(project: string): string[] {
    if (badName('project', project) !== null) return [];
    const projectDir = join(this.root, project);
    if (!existsSync(projectDir)) return [];
    const stamped: Array<{ name: string; added: number }> = [];
    for (const name of readdirSync(projectDir)) {
      if (name.startsWith(HIDDEN_PREFIX)) continue;
      const added = this.addedAt(join(projectDir, name));
      if (added !== null) stamped.push({ name, added });
    }
    return stamped.sort((a, b) => a.added - b.added || a.name.localeCompare(b.name)).map(({ name }) => name);
  }

  /** As listed when the version was added (a version never changes), so schedule.json need not start a seine to check. */
  async spiders(project: string, version?: string): Promise<string[]> {
    const dir = this.versionDir(project, version);
    const stamp = this.stampOf(dir);
    return Array.isArray(stamp?.spiders) ? stamp.spiders.map(String) : listSpiders(dir);
  }

  async remove(project: string, version?: string): Promise<void> {
    assertName('project', project);
    if (version !== undefined) assertName('version', version);
    const target = version === undefined ? join(this.root, project) : join(this.root, project, version);
    const known = version === undefined ? this.versions(project).length > 0 : this.versions(project).includes(version);
    if (!known) throw new Error(version === undefined ? `no project named '${project}'` : `no version '${version}' of project '${project}'`);
    await retire(target);
  }

  command(project: string, version?: string): { file: string; args: string[]; cwd: string } {
    return seineCommandIn(this.versionDir(project, version));
  }

  /** The folder of a version (default: the latest); throws a one-line Error when there is none. */
  versionDir(project: string, version?: string): string {
    assertName('project', project);
    const versions = this.versions(project);
    if (versions.length === 0) throw new Error(`no project named '${project}'`);
    const chosen = version ?? versions.at(-1)!;
    if (!versions.includes(chosen)) throw new Error(`no version '${chosen}' of project '${project}'`);
    return join(this.root, project, chosen);
  }

  private stampOf(dir: string): { added?: unknown; spiders?: unknown[] } | null {
    try {
      if (!statSync(dir).isDirectory()) return null;
      return JSON.parse(readFileSync(join(dir, STAMP_FILE), 'utf8')) as { added?: unknown; spiders?: unknown[] };
    } catch {
      return null;
    }
  }

  private addedAt(dir: string): number | null {
    const added = this.stampOf(dir)?.added;
    return typeof added === 'number' ? added : null;
  }

  /** Replaces an existing version of that name: the old one is retired first. */
  private async moveIntoPlace(incoming: string, target: string): Promise<void> {
    if (existsSync(target)) await retire(target);
    await rename(incoming, target);
  }

  private async dropIfEmpty(project: string): Promise<void> {
    const projectDir = join(this.root, project);
    if (existsSync(projectDir) && readdirSync(projectDir).length === 0) await rm(projectDir, { recursive: true, force: true });
  }
}
