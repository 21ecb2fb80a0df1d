/**
 * A user's file imports a package that is not installed: the error names the
 * package, the user's .ts file (never its compiled copy under
 * node_modules/.cache/seine/ts/) and the npm command. Jest replaces Node's
 * module loader, so Node's error is built here as Node 20 words it; the real
 * one is met in spec/cli/porting.spec.ts.
 */
import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { missingPackage, missingPackageReason } from '../../src/project/missing-package.js';
import { mirrorPath, sourceOfMirror, temporaryMirrorPath } from '../../src/project/typescript/mirror-path.js';

const ROOT = join('/', 'home', 'me', 'shop');
const SPIDER = join(ROOT, 'shop', 'spiders', 'slugs.ts');
const COPY = join(ROOT, 'node_modules', '.cache', 'seine', 'ts', 'shop', 'spiders', 'slugs.ts.mjs');

function nodeError(name: string, importer: string): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from ${importer}`), { code: 'ERR_MODULE_NOT_FOUND' });
}

describe('missingPackage', () => {
  it("reads the package and the user's file from Node's error, also when Node gives a URL", () => {
    expect(missingPackage(nodeError('@slugs/slugify', COPY))).toEqual({ name: '@slugs/slugify', importer: SPIDER });
    expect(missingPackage(nodeError('dayjs', pathToFileURL(COPY).href))).toEqual({ name: 'dayjs', importer: SPIDER });
    expect(missingPackage(new Error("Cannot find package 'dayjs' imported from /x.mjs"))).toBeNull();
    expect(missingPackage(Object.assign(new Error("Cannot find module '/x/y.js' imported from /x.mjs"), { code: 'ERR_MODULE_NOT_FOUND' }))).toBeNull();
  });
});

describe('missingPackageReason', () => {
  const label = join('shop', 'spiders', 'slugs.ts');

  it('says `npm install <name>` for a package the spider file imports', () => {
    expect(missingPackageReason({ name: 'dayjs', importer: SPIDER }, SPIDER, label)).toBe(
      "it imports the package 'dayjs', which is not installed: run `npm install dayjs` in the project",
    );
  });

  it('names the file of the project that imports it when that is another one', () => {
    expect(missingPackageReason({ name: 'dayjs', importer: join(ROOT, 'shop', 'helpers.ts') }, SPIDER, label)).toBe(
      `${join('shop', 'helpers.ts')} imports the package 'dayjs', which is not installed: run \`npm install dayjs\` in the project`,
    );
  });

  it("says to reinstall when an installed package's own dependency is missing", () => {
    const importer = join(ROOT, 'node_modules', 'half', 'index.js');
    expect(missingPackageReason({ name: 'its-dependency', importer }, SPIDER, label)).toBe(
      `the package 'its-dependency', which ${importer} needs, is not installed: reinstall the project's packages (npm install)`,
    );
  });
});

describe('sourceOfMirror', () => {
  it('turns either place of a compiled copy back into its source, and nothing else', () => {
    expect(sourceOfMirror(COPY)).toBe(SPIDER);
    expect(sourceOfMirror(temporaryMirrorPath(SPIDER))).toBe(SPIDER);
    expect(sourceOfMirror(SPIDER)).toBeUndefined();
    expect(sourceOfMirror(join(ROOT, 'node_modules', 'half', 'index.mjs'))).toBeUndefined();
    const here = join(process.cwd(), 'spec', 'project', 'missing-package.spec.ts');
    expect(sourceOfMirror(mirrorPath(here))).toBe(here);
  });
});
