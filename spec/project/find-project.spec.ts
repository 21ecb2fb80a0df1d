import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findProject, findProjectConfigFile, moduleFile } from '../../src/project/find-project.js';
import { ProjectConfigError } from '../../src/project/project-errors.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-find-project-'));
  mkdirSync(join(dir, 'shop', 'shop', 'spiders', 'deep'), { recursive: true });
  writeFileSync(join(dir, 'shop', 'seine.cfg'), '[settings]\ndefault = shop.settings\n\n[deploy]\nproject = shop\n');
  writeFileSync(join(dir, 'shop', 'shop', 'settings.ts'), "export const BOT_NAME = 'shop';\n");
  mkdirSync(join(dir, 'empty-cfg'));
  writeFileSync(join(dir, 'empty-cfg', 'seine.cfg'), '[deploy]\nproject = x\n');
  mkdirSync(join(dir, 'escape', 'inner'), { recursive: true });
  mkdirSync(join(dir, 'outside'), { recursive: true });
  writeFileSync(join(dir, 'outside', 'evil.ts'), "export const BOT_NAME = 'evil';\n");
  writeFileSync(join(dir, 'escape', 'inner', 'seine.cfg'), '[settings]\ndefault = ../../outside/evil\n');
  mkdirSync(join(dir, 'missing'));
  writeFileSync(join(dir, 'missing', 'seine.cfg'), '[settings]\ndefault = nowhere.settings\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('findProject', () => {
  it('finds the nearest seine.cfg from a folder deep inside the project', () => {
    const project = findProject(join(dir, 'shop', 'shop', 'spiders', 'deep'));
    expect(project).toEqual({
      root: join(dir, 'shop'),
      configFile: join(dir, 'shop', 'seine.cfg'),
      settingsModule: 'shop.settings',
      settingsFile: join(dir, 'shop', 'shop', 'settings.ts'),
      sections: { settings: { default: 'shop.settings' }, deploy: { project: 'shop' } },
    });
  });

  it('returns null where no folder up to the root has a seine.cfg', () => {
    expect(findProjectConfigFile(dir)).toBeNull();
    expect(findProject(dir)).toBeNull();
  });

  it('refuses a seine.cfg without [settings] default', () => {
    const cfg = join(dir, 'empty-cfg', 'seine.cfg');
    expect(() => findProject(join(dir, 'empty-cfg'))).toThrow(
      new ProjectConfigError(`${cfg} has no settings module: add "[settings]" with "default = <project>.settings" (the project's settings.ts)`),
    );
  });

  it('refuses a settings module that does not exist', () => {
    const cfg = join(dir, 'missing', 'seine.cfg');
    expect(() => findProject(join(dir, 'missing'))).toThrow(
      `Settings module 'nowhere.settings' named in ${cfg} not found: expected ${join(dir, 'missing', 'nowhere', 'settings.ts')}`,
    );
  });
});

describe('module paths stay inside the project (docs/security.md, "Paths")', () => {
  it("refuses a [settings] default that leads outside the project folder, naming the value and what to do, before looking for the file", () => {
    const root = join(dir, 'escape', 'inner');
    expect(() => findProject(root)).toThrow(
      new ProjectConfigError(
        `${join(root, 'seine.cfg')} ([settings] default) names the module '../../outside/evil', which leads outside the project folder ${root} (to ${join(dir, 'outside', 'evil.ts')}): ` +
          "module paths must stay inside the project; write it relative to the project folder, e.g. 'myproject.settings' or 'myproject/settings'",
      ),
    );
  });

  it('moduleFile: .. that stays inside is fine; one that leaves is a ProjectConfigError; a leading / stays under the root', () => {
    expect(moduleFile('/p', 'a/../tutorial/settings')).toBe('/p/tutorial/settings.ts');
    expect(moduleFile('/p', '/tutorial/settings')).toBe('/p/tutorial/settings.ts');
    expect(moduleFile('/p', '..foo/settings')).toBe('/p/..foo/settings.ts');
    for (const name of ['../x', 'a/../../x', '../p2/settings']) expect(() => moduleFile('/p', name)).toThrow(ProjectConfigError);
  });
});

describe('moduleFile', () => {
  it('reads dotted (Scrapy) and slashed module names as .ts files under the root', () => {
    expect(moduleFile('/p', 'tutorial.settings')).toBe('/p/tutorial/settings.ts');
    expect(moduleFile('/p', 'tutorial/settings')).toBe('/p/tutorial/settings.ts');
    expect(moduleFile('/p', 'tutorial/settings.ts')).toBe('/p/tutorial/settings.ts');
  });
});
