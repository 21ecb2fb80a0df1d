import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse } from 'ini';
import { seineDependency, startProject, typedSpec } from '../../src/project/start-project.js';
import { fileURLToPath } from 'node:url';
import { StartProjectError } from '../../src/project/project-errors.js';
import { PROJECT_TEMPLATE_DIR } from '../../src/project/templates.js';
import { SEINE_VERSION } from '../../src/version.js';

let dir: string;

function files(root: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(root)) {
    const path = join(root, entry);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else out.push(relative(dir, path));
  }
  return out.sort();
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-startproject-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('startProject', () => {
  it('creates the layout of docs/projects.md and says what to do next', () => {
    const started = startProject({ name: 'tutorial', cwd: dir });
    const root = join(dir, 'tutorial');
    expect(started.projectDir).toBe(root);
    expect(files(root)).toEqual([
      'tutorial/package.json',
      'tutorial/seine.cfg',
      'tutorial/tsconfig.json',
      'tutorial/tutorial/index.ts',
      'tutorial/tutorial/items.ts',
      'tutorial/tutorial/middlewares.ts',
      'tutorial/tutorial/pipelines.ts',
      'tutorial/tutorial/settings.ts',
      'tutorial/tutorial/spiders/index.ts',
    ]);
    expect(started.message).toBe(
      `New Seine project 'tutorial', using template directory '${PROJECT_TEMPLATE_DIR}', created in:\n` +
        `    ${root}\n\nYou can start your first spider with:\n    cd tutorial\n    npx seine genspider example example.com\n`,
    );
  });

  it('writes seine.cfg with [settings] default and [deploy] project', () => {
    const cfg = parse(readFileSync(join(dir, 'tutorial', 'seine.cfg'), 'utf8'));
    expect(cfg).toEqual({ settings: { default: 'tutorial.settings' }, deploy: { project: 'tutorial' } });
  });

  it('writes a package.json that depends on this seine (this checkout: its folder) and rxjs, and is an ES module package', () => {
    const pkg = JSON.parse(readFileSync(join(dir, 'tutorial', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg['name']).toBe('tutorial');
    expect(pkg['type']).toBe('module');
    const seineRoot = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
    const own = JSON.parse(readFileSync(join(seineRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg['dependencies']).toEqual({ seine: `file:${seineRoot}`, rxjs: own.dependencies['rxjs'] });
  });

  it('depends on a checkout by its folder, and on an installed copy as the project that installed it does', () => {
    expect(seineDependency('/home/ann/src/seine', SEINE_VERSION)).toBe('file:/home/ann/src/seine');
    const shop = join(dir, 'shop');
    mkdirSync(join(shop, 'node_modules', 'seine'), { recursive: true });
    writeFileSync(join(shop, 'package.json'), JSON.stringify({ dependencies: { seine: 'file:../dl/seine-0.1.0.tgz' } }));
    expect(seineDependency(join(shop, 'node_modules', 'seine'), SEINE_VERSION)).toBe(`file:${join(dir, 'dl', 'seine-0.1.0.tgz')}`);
    writeFileSync(join(shop, 'package.json'), JSON.stringify({ devDependencies: { seine: '^0.2.0' } }));
    expect(seineDependency(join(shop, 'node_modules', 'seine'), SEINE_VERSION)).toBe('^0.2.0');
    // A global install: the folder above node_modules has no package.json naming seine.
    expect(seineDependency(join(dir, 'global', 'lib', 'node_modules', 'seine'), SEINE_VERSION)).toBe(`^${SEINE_VERSION}`);
  });

  it('depends on what --seine names: a path typed relative to the current folder becomes an absolute file: spec', () => {
    startProject({ name: 'packed', cwd: dir, seine: '../seine-0.1.0.tgz' });
    startProject({ name: 'ranged', cwd: dir, seine: 'github:ann/seine#main' });
    const dependency = (project: string) =>
      (JSON.parse(readFileSync(join(dir, project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['seine'];
    expect(dependency('packed')).toBe(`file:${join(dir, '..', 'seine-0.1.0.tgz')}`);
    expect(dependency('ranged')).toBe('github:ann/seine#main');
    expect(typedSpec('file:./seine', '/home/ann')).toBe('file:/home/ann/seine');
    expect(typedSpec('/opt/seine-0.1.0.tgz', '/home/ann')).toBe('file:/opt/seine-0.1.0.tgz');
    expect(typedSpec('^0.1.0', '/home/ann')).toBe('^0.1.0');
  });

  it('writes a tsconfig.json for ES2022 and NodeNext resolution', () => {
    const tsconfig = JSON.parse(readFileSync(join(dir, 'tutorial', 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    expect(tsconfig.compilerOptions).toMatchObject({ target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true });
  });

  it("fills the project's name into settings.ts, pipelines.ts, middlewares.ts and items.ts", () => {
    const module = join(dir, 'tutorial', 'tutorial');
    const settings = readFileSync(join(module, 'settings.ts'), 'utf8');
    for (const line of [
      "export const BOT_NAME = 'tutorial';",
      "export const SPIDER_MODULES = ['tutorial/spiders'];",
      "export const NEWSPIDER_MODULE = 'tutorial/spiders';",
      'export const ROBOTSTXT_OBEY = true;',
      'export const CONCURRENT_REQUESTS_PER_DOMAIN = 1;',
      'export const DOWNLOAD_DELAY = 1;',
      "export const FEED_EXPORT_ENCODING = 'utf-8';",
      '//   TutorialPipeline: 300,',
    ]) {
      expect(settings.split('\n')).toContain(line);
    }
    expect(readFileSync(join(module, 'pipelines.ts'), 'utf8')).toContain('export class TutorialPipeline implements ItemPipeline {');
    expect(readFileSync(join(module, 'items.ts'), 'utf8')).toContain('export class TutorialItem {');
    const middlewares = readFileSync(join(module, 'middlewares.ts'), 'utf8');
    expect(middlewares).toContain('export class TutorialSpiderMiddleware implements SpiderMiddleware {');
    expect(middlewares).toContain('export class TutorialDownloaderMiddleware implements DownloaderMiddleware {');
    // The template's own template literal is left for TypeScript.
    expect(middlewares).toContain('spider.logger.info(`Spider opened: ${spider.name}`);');
    for (const hook of [
      '  processSpiderInput(', '  async *processSpiderOutput(', '  processSpiderException(', '  async *processStart(',
      '  processRequest(', '  processResponse(', '  processException(', '  openSpider(',
    ]) {
      expect(middlewares).toContain(hook);
    }
  });

  it('creates the project in the folder given as second argument, and says `cd <that folder>`', () => {
    const started = startProject({ name: 'shop', dir: 'sites/shop-project', cwd: dir });
    expect(started.projectDir).toBe(join(dir, 'sites', 'shop-project'));
    expect(readFileSync(join(dir, 'sites', 'shop-project', 'shop', 'settings.ts'), 'utf8')).toContain("export const BOT_NAME = 'shop';");
    expect(started.message).toContain('\n    cd sites/shop-project\n');
  });

  it('accepts an existing empty folder', () => {
    mkdirSync(join(dir, 'empty'));
    expect(startProject({ name: 'inempty', dir: 'empty', cwd: dir }).projectDir).toBe(join(dir, 'empty'));
  });

  it('refuses a name that is not an identifier, and suggests one', () => {
    expect(() => startProject({ name: 'my-project', cwd: dir })).toThrow(
      new StartProjectError(
        "Invalid project name 'my-project': project names must begin with a letter and contain only letters, numbers and underscores (e.g. 'my_project')",
      ),
    );
    expect(() => startProject({ name: '1st', cwd: dir })).toThrow("Invalid project name '1st'");
  });

  it('refuses a folder that already holds a project', () => {
    expect(() => startProject({ name: 'other', dir: 'tutorial', cwd: dir })).toThrow(
      new StartProjectError(`seine.cfg already exists in ${join(dir, 'tutorial')}: choose another directory`),
    );
  });

  it('refuses an existing folder that is not empty', () => {
    mkdirSync(join(dir, 'taken'));
    writeFileSync(join(dir, 'taken', 'notes.txt'), 'mine');
    expect(() => startProject({ name: 'taken', cwd: dir })).toThrow(
      new StartProjectError(`Directory ${join(dir, 'taken')} already exists and is not empty: choose another name or directory`),
    );
  });
});
