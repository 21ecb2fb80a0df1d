import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { t as listTar } from 'tar';
import { Readable } from 'node:stream';
import { ignoreMatcher, packProject, portableManifest, projectFiles } from '../../src/deploy/pack-project.js';

function write(root: string, path: string, text = 'x'): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

async function entriesOf(tarball: Buffer): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    const parser = listTar({
      onReadEntry(entry) {
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => entries.set(entry.path, Buffer.concat(chunks).toString()));
      },
    });
    parser.on('end', resolve).on('error', reject);
    Readable.from([tarball]).pipe(parser as unknown as NodeJS.WritableStream);
  });
  return entries;
}

describe('packProject (what seine deploy uploads)', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'seine-pack-'));
    write(root, 'seine.cfg', '[settings]\ndefault = shop.settings\n\n[deploy]\nurl = http://localhost:6800/\npassword = s3cret\n\n[deploy:prod]\npassword = other\n\n[other]\nkey = kept\n');
    write(root, 'tsconfig.json', '{}');
    write(root, 'package.json', JSON.stringify({ name: 'shop', dependencies: { seine: 'file:../seine-checkout', rxjs: '^7.8.0' } }));
    write(
      root,
      'package-lock.json',
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          '': { name: 'shop', dependencies: { seine: 'file:../seine-checkout', rxjs: '^7.8.0' } },
          '../seine-checkout': { name: 'seine', version: '0.1.0' },
          'node_modules/seine': { resolved: '../seine-checkout', link: true },
          'node_modules/rxjs': { version: '7.8.2', resolved: 'https://registry.npmjs.org/rxjs/-/rxjs-7.8.2.tgz' },
        },
      }),
    );
    write(root, 'shop/settings.ts');
    write(root, 'shop/spiders/books.ts');
    write(root, 'shop/data/cities.csv', 'kept: a project file below the top');
    write(root, 'node_modules/rxjs/index.js');
    write(root, 'shop/node_modules/x.js');
    write(root, '.git/HEAD');
    write(root, '.seine/httpcache/x');
    write(root, '.env', 'PASSWORD=secret');
    write(root, 'items.jl');
    write(root, 'out.csv');
    write(root, 'scratch/notes.txt');
    write(root, 'shop/spiders/draft.tmp.ts');
    write(root, '.seineignore', '# not deployed\nscratch\n*.tmp.ts\n');
    symlinkSync('/etc/passwd', join(root, 'shop', 'passwd'));
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('holds the sources, manifests, seine.cfg and tsconfig, without node_modules, dot-entries, top-level feeds, links or ignored files', async () => {
    const expected = ['package-lock.json', 'package.json', 'seine.cfg', 'shop/data/cities.csv', 'shop/settings.ts', 'shop/spiders/books.ts', 'tsconfig.json'];
    expect(projectFiles(root)).toEqual(expected);
    const { tarball, files } = await packProject(root);
    expect(files).toEqual(expected);
    expect([...(await entriesOf(tarball)).keys()].sort()).toEqual(expected);
  });

  it("writes package.json's and the lockfile's local links as absolute paths (the service makes them relative to where it installs)", async () => {
    const entries = await entriesOf((await packProject(root)).tarball);
    const checkout = join(root, '..', 'seine-checkout');
    expect(JSON.parse(entries.get('package.json')!).dependencies).toEqual({ seine: `file:${checkout}`, rxjs: '^7.8.0' });
    const lock = JSON.parse(entries.get('package-lock.json')!) as { packages: Record<string, Record<string, unknown>> };
    expect(Object.keys(lock.packages)).toEqual(['', checkout, 'node_modules/seine', 'node_modules/rxjs']);
    expect(lock.packages['']!['dependencies']).toEqual({ seine: `file:${checkout}`, rxjs: '^7.8.0' });
    expect(lock.packages['node_modules/seine']).toEqual({ resolved: checkout, link: true });
    expect(lock.packages['node_modules/rxjs']!['resolved']).toBe('https://registry.npmjs.org/rxjs/-/rxjs-7.8.2.tgz');
  });

  it("leaves seine.cfg's deploy targets (and their passwords) out", async () => {
    const entries = await entriesOf((await packProject(root)).tarball);
    expect(entries.get('seine.cfg')).toBe('[settings]\ndefault = shop.settings\n\n[other]\nkey = kept\n');
  });

  it('makes a tarball dependency absolute too', () => {
    const lock = JSON.stringify({ packages: { 'node_modules/seine': { resolved: 'file:../seine-0.1.0.tgz' } } });
    expect(JSON.parse(portableManifest('package-lock.json', lock, '/home/me/shop')).packages['node_modules/seine'].resolved).toBe('file:/home/me/seine-0.1.0.tgz');
  });

  it('refuses a project without package-lock.json, saying to run npm install', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'seine-pack-bare-'));
    try {
      write(bare, 'package.json', '{}');
      await expect(packProject(bare)).rejects.toThrow(`${bare} has no package-lock.json: run \`npm install\` in the project first (the service installs exactly what the lockfile pins)`);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('.seineignore patterns match a path, a folder above it, or a name, with * inside a name', () => {
    const ignored = ignoreMatcher('scratch\nshop/fixtures\n*.bak\n');
    expect(['scratch', 'scratch/a.ts', 'shop/fixtures/page.html', 'a/b.bak'].every(ignored)).toBe(true);
    expect(['shop/spiders/a.ts', 'scratchpad.ts', 'shop/fixtures.ts'].some(ignored)).toBe(false);
  });
});
