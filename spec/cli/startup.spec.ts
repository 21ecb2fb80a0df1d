/**
 * `seine`, `seine --help` and `seine version` are answered by bin/seine.js
 * before the CLI's option parser, settings and logging are loaded
 * (src/cli/quick-answer.ts). What a user notices: the same output as the
 * full path, and inside a project whose settings turn logging on, the
 * start-up lines still appear. Which packages a command loads is recorded
 * through a resolve hook in the child process.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { SEINE_VERSION } from '../../src/version.js';
import { resolveLog, type ResolveLog } from '../helpers/resolve-log.js';
import { startSite } from '../helpers/site-server.js';
import { ensureBuilt, logMessages, ROOT, runSeine } from './fixtures/run-seine.js';

let dir: string;
let imports: ResolveLog;
/** Stands for the CLI's module (its option parser, yargs, settings and logging) among the packages loaded. */
const CLI = '(the CLI)';

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'seine-startup-'));
  // Bare specifiers (packages), and the CLI's module itself: yargs is bundled into it (scripts/build.mjs).
  imports = resolveLog(dir, "(!specifier.startsWith('.') && !specifier.startsWith('node:') && !specifier.startsWith('file:')) || specifier.endsWith('/cli/main.js')");
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a run of `seine <args>` in `cwd` imported: packages by bare specifier, and CLI for the CLI's module. */
async function packagesLoaded(args: string[], cwd: string): Promise<{ stdout: string; packages: string[] }> {
  imports.clear();
  const run = await runSeine(args, cwd, { NODE_OPTIONS: `--import=${imports.hook}` });
  expect(run.status).toBe(0);
  return { stdout: run.stdout, packages: imports.specifiers().map((specifier) => (specifier.endsWith('/cli/main.js') ? CLI : specifier)) };
}

describe('commands answered before the CLI loads', () => {
  it('seine version outside a project prints the version and loads neither the CLI nor rxjs', async () => {
    const quick = await packagesLoaded(['version'], dir);
    expect(quick.stdout).toBe(`seine ${SEINE_VERSION}\n`);
    expect(quick.packages).not.toContain(CLI);
    expect(quick.packages).not.toContain('rxjs');
    // The same command with an option takes the full path, and prints the same line.
    const full = await packagesLoaded(['version', '--nolog'], dir);
    expect(full.stdout).toBe(`seine ${SEINE_VERSION}\n`);
    expect(full.packages).toContain(CLI);
  }, 60_000);

  it('seine, seine --help and seine -h print the command list the full path prints', async () => {
    const full = await packagesLoaded(['--nolog'], dir);
    expect(full.packages).toContain(CLI);
    expect(full.stdout).toContain('Available commands:\n  bench ');
    for (const args of [[], ['--help'], ['-h']]) {
      const quick = await packagesLoaded(args, dir);
      expect(quick.stdout).toBe(full.stdout);
      expect(quick.packages).not.toContain(CLI);
    }
  }, 60_000);

  it('inside a project whose settings turn logging on, seine version logs the start-up lines', async () => {
    const project = join(dir, 'logged');
    expect((await runSeine(['startproject', 'logged', project], dir)).status).toBe(0);
    const settings = join(project, 'logged', 'settings.ts');
    writeFileSync(settings, readFileSync(settings, 'utf8') + "\nexport const LOG_ENABLED = true;\nexport const LOG_LEVEL = 'INFO';\n");
    const run = await runSeine(['version'], project);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`seine ${SEINE_VERSION}\n`);
    expect(logMessages(run.stderr)[0]).toBe(`seine ${SEINE_VERSION} started (bot: logged)`);
  }, 60_000);

  it('a reader that closes the pipe early ends the command quietly', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'seine.js'), 'version', '-v'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(status).toBe(0);
  }, 60_000);
});

describe('what a crawl loads only when it needs it', () => {
  it('runspider of a spider that yields nothing loads neither rxjs’s CommonJS files, got, tough-cookie, the CSV libraries, ioredis nor playwright-core, and still finishes', async () => {
    const spiderFile = join(dir, 'nothing.ts');
    const report = join(dir, 'cjs-loaded.json');
    // CommonJS packages loaded with require() bypass the resolve hook: the spider reports require's cache when it closes.
    writeFileSync(
      spiderFile,
      `import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { Spider } from 'seine';
export class NothingSpider extends Spider {
  static override name = 'nothing';
  closed() {
    writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
  }
}
`,
    );
    const run = await packagesLoaded(['runspider', spiderFile], dir);
    // esbuild compiles the spider; rxjs is part of seine's bundle (scripts/build.mjs), not loaded from its 224 CommonJS files.
    expect(run.packages).toContain('esbuild');
    for (const name of ['rxjs', 'got', 'tough-cookie', 'csv-parse/sync', 'csv-stringify/sync', 'playwright-core']) expect(run.packages).not.toContain(name);
    const required = JSON.parse(readFileSync(report, 'utf8')) as string[];
    expect(required.length).toBeGreaterThan(0);
    for (const name of ['tough-cookie', 'csv-parse', 'csv-stringify', 'ioredis']) {
      expect(required.filter((path) => path.includes(`/node_modules/${name}/`))).toEqual([]);
    }
  }, 60_000);

  it('a crawl that downloads over HTTP/1.1 does not load got; one with H2DownloadHandler does', async () => {
    const site = await startSite({ '/': '<html><body><p>hello</p></body></html>' });
    try {
      const spiderFile = join(dir, 'one-page.ts');
      const spider = (settings: string): string => `import { Spider, type Response } from 'seine';
export class OnePageSpider extends Spider {
  static override name = 'one-page';
  static override customSettings = ${settings};
  override startUrls = [${JSON.stringify(site.url('/'))}];
  override parse(response: Response) {
    return { text: response.css('p::text').get() };
  }
}
`;
      writeFileSync(spiderFile, spider('{}'));
      const plain = await packagesLoaded(['runspider', spiderFile, '-O', join(dir, 'plain.jsonl')], dir);
      expect(readFileSync(join(dir, 'plain.jsonl'), 'utf8')).toBe('{"text": "hello"}\n');
      expect(plain.packages).not.toContain('got');
      writeFileSync(spiderFile, spider("{ DOWNLOAD_HANDLERS: { http: 'H2DownloadHandler' } }"));
      const h2 = await packagesLoaded(['runspider', spiderFile, '-O', join(dir, 'h2.jsonl')], dir);
      expect(readFileSync(join(dir, 'h2.jsonl'), 'utf8')).toBe('{"text": "hello"}\n');
      expect(h2.packages).toContain('got');
    } finally {
      await site.close();
    }
  }, 60_000);
});
