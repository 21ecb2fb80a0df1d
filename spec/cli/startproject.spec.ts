/**
 * `seine startproject` through the real binary: the files, the message,
 * the refusals, and a generated project that type-checks.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, ensureBuilt, runSeine } from './fixtures/run-seine.js';

const TIMEOUT = 60_000;
const TEMPLATES = join(ROOT, 'scaffold', 'project');
let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'seine-startproject-cli-'));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seine startproject', () => {
  it('creates the project and prints the next steps like Scrapy', async () => {
    expect(await runSeine(['startproject', 'tutorial'], dir)).toEqual({
      status: 0,
      signal: null,
      stderr: '',
      stdout:
        `New Seine project 'tutorial', using template directory '${TEMPLATES}', created in:\n` +
        `    ${join(dir, 'tutorial')}\n\n` +
        'You can start your first spider with:\n    cd tutorial\n    npx seine genspider example example.com\n',
    });
    for (const file of ['seine.cfg', 'package.json', 'tsconfig.json', 'tutorial/index.ts', 'tutorial/items.ts', 'tutorial/middlewares.ts',
      'tutorial/pipelines.ts', 'tutorial/settings.ts', 'tutorial/spiders/index.ts']) {
      expect(existsSync(join(dir, 'tutorial', file))).toBe(true);
    }
    expect(readFileSync(join(dir, 'tutorial', 'seine.cfg'), 'utf8')).toContain('[settings]\ndefault = tutorial.settings\n\n[deploy]\n#url = http://localhost:6800/\nproject = tutorial\n');
  }, TIMEOUT);

  it('creates the project in the given folder', async () => {
    const result = await runSeine(['startproject', 'shop', 'sites/shop'], dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`created in:\n    ${join(dir, 'sites', 'shop')}\n\nYou can start your first spider with:\n    cd sites/shop\n`);
    expect(existsSync(join(dir, 'sites', 'shop', 'shop', 'settings.ts'))).toBe(true);
  }, TIMEOUT);

  it('refuses a name that is not an identifier, exit 1', async () => {
    expect(await runSeine(['startproject', 'my-project'], dir)).toEqual({
      status: 1,
      signal: null,
      stdout: '',
      stderr: "seine: Invalid project name 'my-project': project names must begin with a letter and contain only letters, numbers and underscores (e.g. 'my_project')\n",
    });
    expect(existsSync(join(dir, 'my-project'))).toBe(false);
  }, TIMEOUT);

  it('refuses a folder that holds a project, and one that holds other files', async () => {
    expect(await runSeine(['startproject', 'again', 'tutorial'], dir)).toMatchObject({
      status: 1,
      stderr: `seine: seine.cfg already exists in ${join(dir, 'tutorial')}: choose another directory\n`,
    });
    mkdirSync(join(dir, 'notes'));
    writeFileSync(join(dir, 'notes', 'todo.txt'), 'x');
    expect(await runSeine(['startproject', 'notes'], dir)).toMatchObject({
      status: 1,
      stderr: `seine: Directory ${join(dir, 'notes')} already exists and is not empty: choose another name or directory\n`,
    });
  }, TIMEOUT);

  it('--seine names what package.json depends on: a tarball path typed relative to here becomes absolute', async () => {
    expect((await runSeine(['startproject', 'packed', '--seine', '../seine-0.1.0.tgz'], dir)).status).toBe(0);
    const pkg = JSON.parse(readFileSync(join(dir, 'packed', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['seine']).toBe(`file:${join(dir, '..', 'seine-0.1.0.tgz')}`);
  }, TIMEOUT);

  it('needs a name (usage error, exit 2)', async () => {
    const result = await runSeine(['startproject'], dir);
    expect(result.status).toBe(2);
  }, TIMEOUT);

  it('makes a project that type-checks with tsc once seine and @types/node are installed', async () => {
    const project = join(dir, 'tutorial');
    // What `npm install` in the project would provide, linked from this checkout.
    mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
    symlinkSync(ROOT, join(project, 'node_modules', 'seine'));
    symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'));
    expect((await runSeine(['genspider', 'example', 'example.com'], project)).status).toBe(0);
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const { stdout } = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', project], { cwd: project });
    expect(stdout).toBe('');
  }, TIMEOUT);
});
