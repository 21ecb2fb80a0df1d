import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataPath, projectDataDir } from '../../src/project/data-path.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-data-path-'));
  mkdirSync(join(dir, 'proj', 'proj', 'spiders'), { recursive: true });
  writeFileSync(join(dir, 'proj', 'seine.cfg'), '[settings]\ndefault = proj.settings\n');
  mkdirSync(join(dir, 'loose'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dataPath', () => {
  it('puts a relative path in .seine/ next to the nearest seine.cfg, from any folder of the project', () => {
    for (const cwd of [join(dir, 'proj'), join(dir, 'proj', 'proj', 'spiders')]) {
      expect([projectDataDir(cwd), dataPath('httpcache', cwd)]).toEqual([join(dir, 'proj', '.seine'), join(dir, 'proj', '.seine', 'httpcache')]);
    }
  });

  it('puts it in .seine/ of the current folder outside a project', () => {
    expect([projectDataDir(join(dir, 'loose')), dataPath('httpcache', join(dir, 'loose'))]).toEqual([null, join(dir, 'loose', '.seine', 'httpcache')]);
  });

  it('keeps an absolute path as it is', () => {
    expect(dataPath('/var/cache/seine', join(dir, 'proj'))).toBe('/var/cache/seine');
  });
});
