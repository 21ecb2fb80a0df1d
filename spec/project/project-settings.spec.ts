/**
 * Jest loads the user's .ts files itself (swc), and refuses module.register():
 * the tsx hooks that the CLI installs are replaced by no-ops here.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

jest.unstable_mockModule('tsx/esm/api', () => ({ register: () => () => {} }));
// Only the loader hook is stubbed; createRequire stays real (the XPath regex engine loads re2-wasm with it).
jest.unstable_mockModule('node:module', () => ({ register: () => {}, createRequire }));
const { findProject } = await import('../../src/project/find-project.js');
const { loadProjectSettings } = await import('../../src/project/project-settings.js');

let dir: string;

function project(name: string, files: Record<string, string>): string {
  const root = join(dir, name);
  mkdirSync(join(root, 'shop'), { recursive: true });
  writeFileSync(join(root, 'seine.cfg'), '[settings]\ndefault = shop.settings\n');
  for (const [file, text] of Object.entries(files)) writeFileSync(join(root, 'shop', file), text);
  return root;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-project-settings-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadProjectSettings', () => {
  it('takes the exported UPPER_SNAKE constants only', async () => {
    const root = project('plain', {
      'settings.ts': "export const BOT_NAME = 'shop';\nexport const DOWNLOAD_DELAY = 2;\nexport const helper = 1;\nexport function Fn() {}\n",
    });
    expect(await loadProjectSettings(findProject(root)!)).toEqual({ BOT_NAME: 'shop', DOWNLOAD_DELAY: 2 });
  });

  it("resolves component names against the project's pipelines.ts and middlewares.ts, keeping built-in names", async () => {
    const root = project('named', {
      'settings.ts': [
        "export const ITEM_PIPELINES = { ShopPipeline: 300, 'shop.pipelines.OtherPipeline': 400 };",
        'export const DOWNLOADER_MIDDLEWARES = { ShopDownloaderMiddleware: 543, UserAgentMiddleware: null };',
        'export const SPIDER_MIDDLEWARES = { DepthMiddleware: null };',
      ].join('\n'),
      'pipelines.ts': 'export class ShopPipeline {}\nexport class OtherPipeline {}\n',
      'middlewares.ts': 'export class ShopDownloaderMiddleware {}\n',
    });
    const settings = await loadProjectSettings(findProject(root)!);
    const pipelines = settings['ITEM_PIPELINES'] as Map<unknown, number>;
    expect([...pipelines].map(([key, order]) => [(key as Function).name, order])).toEqual([['ShopPipeline', 300], ['OtherPipeline', 400]]);
    const downloader = settings['DOWNLOADER_MIDDLEWARES'] as Map<unknown, number | null>;
    expect([...downloader].map(([key, order]) => [typeof key === 'string' ? key : (key as Function).name, order])).toEqual([
      ['ShopDownloaderMiddleware', 543],
      ['UserAgentMiddleware', null],
    ]);
    // Nothing to resolve: the object stays as written.
    expect(settings['SPIDER_MIDDLEWARES']).toEqual({ DepthMiddleware: null });
  });

  it('keeps a Map from class to order as it is', async () => {
    const root = project('map', {
      'settings.ts': "import { ShopPipeline } from './pipelines.js';\nexport const ITEM_PIPELINES = new Map([[ShopPipeline, 300]]);\n",
      'pipelines.ts': 'export class ShopPipeline {}\n',
    });
    const pipelines = (await loadProjectSettings(findProject(root)!))['ITEM_PIPELINES'];
    expect(pipelines).toBeInstanceOf(Map);
    expect([...(pipelines as Map<Function, number>).keys()].map((cls) => cls.name)).toEqual(['ShopPipeline']);
  });
});
