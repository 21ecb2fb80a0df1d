/**
 * A project packed for `seine serve`: its own files as a .tar.gz, without
 * node_modules (the service installs them from the lockfile), dot-entries
 * (.git, the `.seine` data folder, .env and such secrets), symlinks, feeds
 * written at the project's top (*.jl, *.csv … — package*.json and
 * tsconfig*.json stay), and whatever `.seineignore` names.
 *
 * package.json and package-lock.json travel with their local links made
 * absolute: npm writes a `file:` dependency's path relative to the project,
 * and the service installs elsewhere (it makes them relative again, see
 * src/serve/project-versions-install.ts). seine.cfg travels without its
 * deploy targets (their passwords stay on the developer's machine).
 */
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { c as createTar } from 'tar';
import { DeployError } from './deploy-error.js';

const FEED_EXTENSIONS = /\.(jl|jsonl|json|csv|xml|marshal|pickle)$/i;
const KEPT_TOP_FILES = /^(package(-lock)?\.json|tsconfig(\..+)?\.json)$/;
const REWRITTEN = new Set(['package.json', 'package-lock.json', 'seine.cfg']);

/** `.seineignore`: one pattern a line (`#` comments); `*` matches within a name; a pattern matches a path or any of its names. */
export function ignoreMatcher(text: string): (path: string) => boolean {
  const patterns = text
    .split('\n')
    .map((line) => line.trim().replace(/^\/+|\/+$/g, ''))
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => new RegExp(`^${line.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`));
  return (path) => {
    const names = path.split('/');
    return patterns.some((pattern) => pattern.test(path) || names.some((name) => pattern.test(name)) || names.some((_, i) => pattern.test(names.slice(0, i + 1).join('/'))));
  };
}

/** The project's files to pack, relative with '/', sorted. */
export function projectFiles(root: string): string[] {
  const ignoreFile = join(root, '.seineignore');
  const ignored = ignoreMatcher(existsSync(ignoreFile) ? readFileSync(ignoreFile, 'utf8') : '');
  const files: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = prefix === '' ? name : `${prefix}/${name}`;
      if (name.startsWith('.') || name === 'node_modules' || ignored(path)) continue;
      const stat = lstatSync(join(dir, name));
      if (stat.isDirectory()) walk(join(dir, name), path);
      else if (stat.isFile() && !(prefix === '' && FEED_EXTENSIONS.test(name) && !KEPT_TOP_FILES.test(name))) files.push(path);
    }
  };
  walk(root, '');
  return files;
}

type Json = Record<string, unknown>;

function absoluteFileSpec(spec: unknown, root: string): unknown {
  if (typeof spec !== 'string' || !spec.startsWith('file:')) return spec;
  const path = spec.slice('file:'.length);
  return isAbsolute(path) ? spec : `file:${resolve(root, path)}`;
}

function absoluteDependencies(pkg: Json, root: string): void {
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    const deps = pkg[field] as Record<string, unknown> | undefined;
    if (deps === undefined || typeof deps !== 'object') continue;
    for (const [name, spec] of Object.entries(deps)) deps[name] = absoluteFileSpec(spec, root);
  }
}

/**
 * seine.cfg without its `[deploy]` and `[deploy:…]` sections: they hold the
 * service's password, which the service has no use for and would keep in
 * every version's folder.
 */
export function withoutDeploySections(cfg: string): string {
  let inDeploy = false;
  const kept: string[] = [];
  for (const line of cfg.split('\n')) {
    const header = /^\s*\[([^\]]+)\]/.exec(line);
    if (header !== null) inDeploy = /^deploy(:|$)/.test(header[1]!.trim());
    if (!inDeploy) kept.push(line);
  }
  return kept.join('\n');
}

/** package.json or package-lock.json with their `file:` and linked paths absolute; seine.cfg without its deploy targets. */
export function portableManifest(name: string, text: string, root: string): string {
  if (name === 'seine.cfg') return withoutDeploySections(text);
  const json = JSON.parse(text) as Json;
  if (name === 'package.json') {
    absoluteDependencies(json, root);
  } else {
    const packages = json['packages'] as Record<string, Json> | undefined;
    if (packages !== undefined) {
      const rewritten: Record<string, Json> = {};
      for (const [key, entry] of Object.entries(packages)) {
        // Keys other than '' and node_modules/… are linked folders, relative to the project.
        const linked = key !== '' && !key.startsWith('node_modules/') && !key.includes('/node_modules/') && !isAbsolute(key);
        if (key === '') absoluteDependencies(entry, root);
        if (entry['link'] === true && typeof entry['resolved'] === 'string' && !isAbsolute(entry['resolved'])) entry['resolved'] = resolve(root, entry['resolved']);
        if (typeof entry['resolved'] === 'string') entry['resolved'] = absoluteFileSpec(entry['resolved'], root);
        rewritten[linked ? resolve(root, key) : key] = entry;
      }
      json['packages'] = rewritten;
    }
  }
  return `${JSON.stringify(json, null, 2)}\n`;
}

export interface PackedProject {
  readonly tarball: Buffer;
  readonly files: readonly string[];
}

/** Packs the project at `root`; a DeployError when it has no package.json or lockfile. */
export async function packProject(root: string): Promise<PackedProject> {
  if (!existsSync(join(root, 'package.json'))) throw new DeployError(`${root} has no package.json: deploy a project made by \`seine startproject\``);
  if (!existsSync(join(root, 'package-lock.json'))) {
    throw new DeployError(`${root} has no package-lock.json: run \`npm install\` in the project first (the service installs exactly what the lockfile pins)`);
  }
  const files = projectFiles(root);
  // A staging copy, so the rewritten manifests go into the tarball under their own names.
  const staging = mkdtempSync(join(tmpdir(), 'seine-deploy-'));
  try {
    for (const file of files) {
      const target = join(staging, ...file.split('/'));
      mkdirSync(dirname(target), { recursive: true });
      if (REWRITTEN.has(file)) writeFileSync(target, portableManifest(file, readFileSync(join(root, file), 'utf8'), root));
      else copyFileSync(join(root, ...file.split('/')), target);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of createTar({ gzip: true, cwd: staging, portable: true }, files) as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk));
    return { tarball: Buffer.concat(chunks), files };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
