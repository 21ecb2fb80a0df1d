/**
 * Every ```ts block of README.md and docs/*.md works as shown
 * (fixtures/snippets.ts says how blocks are found and how a fragment is
 * wrapped). All are type-checked in one tsc run, as modules of a "type":
 * "module" package whose node_modules has this checkout as `seine` (its
 * built dist/ and declarations, as an installed copy); then the programs are
 * run with tsx and the spiders with `seine runspider`, with
 * `http://127.0.0.1:8000` replaced by the demo site's address. Blocks marked
 * `// example: <name>` and docs/tutorial.md's are run by their page's own spec,
 * which checks their output, so here they are only type-checked.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startDemoSite, type DemoSite } from '../../src/demo/index.js';
import { ROOT, ensureBuilt, runSeine } from '../cli/fixtures/run-seine.js';
import { allSnippets, type Snippet } from './fixtures/snippets.js';

const run = promisify(execFile);
const SNIPPETS = allSnippets(ROOT);
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** The blocks another spec runs and checks the output of. */
function runElsewhere(snippet: Snippet): boolean {
  return snippet.example !== '' || snippet.where.startsWith('docs/tutorial.md:');
}

/** Shell lines are typed at the shell's prompt, not run as a file. */
function isShellLine(snippet: Snippet): boolean {
  return snippet.fragment === 'typed at the seine shell prompt';
}

let dir: string;
let site: DemoSite;

/** The block's module, its demo-site URLs pointed at the running demo site. */
function onDemoSite(source: string): string {
  return source.replaceAll('http://127.0.0.1:8000/', site.url);
}

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startDemoSite();
  dir = mkdtempSync(join(tmpdir(), 'seine-snippets-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  mkdirSync(join(dir, 'node_modules'));
  // What `npm install seine` gives a user: seine itself, its rxjs (shared by both), and the editor's Node types.
  symlinkSync(ROOT, join(dir, 'node_modules', 'seine'));
  symlinkSync(join(ROOT, 'node_modules', 'rxjs'), join(dir, 'node_modules', 'rxjs'));
  symlinkSync(join(ROOT, 'node_modules', '@types'), join(dir, 'node_modules', '@types'));
  // zod, which docs/monitors.md's itemSchema example imports (a user installs it: seine only duck-types safeParse).
  symlinkSync(join(ROOT, 'node_modules', 'zod'), join(dir, 'node_modules', 'zod'));
  // startproject's compiler options (scaffold/project/tsconfig.json.tmpl), for loose files.
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'], types: ['node'], strict: true,
        skipLibCheck: true, noEmit: true, isolatedModules: true, verbatimModuleSyntax: true, moduleDetection: 'force',
      },
      include: ['*.ts'],
    }),
  );
  // The project files that `// fragment: in a project's settings.ts` blocks import.
  writeFileSync(join(dir, 'items.ts'), 'export class Author {\n  name = \'\';\n}\n');
  writeFileSync(join(dir, 'pipelines.ts'), 'export class TutorialPipeline {\n  processItem(item: object) {\n    return item;\n  }\n}\n');
  for (const snippet of SNIPPETS) {
    writeFileSync(join(dir, snippet.file), onDemoSite(snippet.source));
    if (snippet.savedAs !== '') writeFileSync(join(dir, snippet.savedAs), onDemoSite(snippet.source));
  }
}, 120_000);

afterAll(async () => {
  await site?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('the ts blocks of README.md and docs/*.md', () => {
  it('are found on every page that has them', () => {
    expect(SNIPPETS.length).toBeGreaterThan(50);
    expect(SNIPPETS.filter((snippet) => snippet.where.startsWith('README.md:')).length).toBe(3);
  });

  it('type-check against the built seine, each as a module of its own (one tsc run)', async () => {
    const result = await run(process.execPath, [TSC, '-p', dir, '--pretty', 'false'], { cwd: dir }).then(
      ({ stdout }) => stdout,
      (error: { stdout: string }) => error.stdout,
    );
    const byFile = new Map(SNIPPETS.map((snippet) => [snippet.file, snippet]));
    // `docs-x-12.ts(3,5): error TS2304: …` → `docs/x.md:15: TS2304 …`: the line of the page.
    const errors = result
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const match = /^(.+?\.ts)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line);
        const snippet = match === null ? undefined : byFile.get(match[1]!);
        if (match === null || snippet === undefined) return line;
        const [page, fence] = snippet.where.split(':');
        return `${page}:${Number(fence) + Number(match[2]) - snippet.offset}: ${match[3]}`;
      });
    expect(errors).toEqual([]);
  }, 60_000);

  const programs = SNIPPETS.filter((snippet) => snippet.kind === 'program' && !runElsewhere(snippet) && !isShellLine(snippet));
  it.each(programs.map((snippet) => [snippet.where, snippet] as const))('%s runs with tsx, exit status 0', async (_where, snippet) => {
    // execFile rejects, with the program's standard error, when the exit status is not 0.
    await run(process.execPath, [TSX, snippet.savedAs || snippet.file], { cwd: dir, timeout: 30_000 });
  }, 40_000);

  it("README's stream example prints the first five quotes of the demo site", async () => {
    const { stdout } = await run(process.execPath, [TSX, 'first-five.ts'], { cwd: dir, timeout: 30_000 });
    // Five of page 1's quotes, in the order their downloads finished.
    expect(stdout.match(/^ {4}text: '“.+”',\n {4}author: '.+'$/gm)).toHaveLength(5);
  }, 40_000);

  const spiders = SNIPPETS.filter((snippet) => snippet.kind === 'spider' && !runElsewhere(snippet) && snippet.text.includes('http://127.0.0.1:8000/'));
  it.each(spiders.map((snippet) => [snippet.where, snippet] as const))('%s crawls the demo site with seine runspider and scrapes items', async (_where, snippet) => {
    const feed = snippet.file.replace(/\.ts$/, '.jsonl');
    const result = await runSeine(['runspider', snippet.file, '-O', feed, '-s', 'CLOSESPIDER_PAGECOUNT=3', '--loglevel', 'WARNING'], dir);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    // A spider that yields nothing (shell.md's inspectResponse example) only has to run.
    if (/\byield\b/.test(snippet.text)) expect(readFileSync(join(dir, feed), 'utf8').split('\n').length).toBeGreaterThan(1);
  }, 40_000);
});
