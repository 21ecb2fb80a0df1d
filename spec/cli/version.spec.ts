import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COMPONENT_PACKAGES, SEINE_VERSION, componentVersions, findPackageVersion } from '../../src/version.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('version.ts', () => {
  it("reads seine's version from package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(SEINE_VERSION).toBe(pkg.version);
  });

  it('finds a package by walking up node_modules folders, as Node resolves it', () => {
    expect(findPackageVersion('yargs', `${ROOT}src/cli/commands`)).toMatch(/^18\./);
    expect(findPackageVersion('no-such-package-for-seine', ROOT)).toBeUndefined();
  });

  it('lists seine, Node.js, the component packages and the platform, in order', () => {
    expect(componentVersions().map(([name]) => name)).toEqual(['seine', 'Node.js', ...COMPONENT_PACKAGES, 'Platform']);
  });
});
