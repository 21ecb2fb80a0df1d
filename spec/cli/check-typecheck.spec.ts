/**
 * `seine check`'s type check through the real binary, in projects made by
 * `seine startproject`: with the project's TypeScript (this checkout's,
 * linked where `npm install` would put it), without it, and skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, ensureBuilt, runSeine } from './fixtures/run-seine.js';

const TIMEOUT = 60_000;
const TS_VERSION = (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string }).version;

const ITEMS = `export class QuoteItem {
  text?: string;
  author?: string;
  tags: string[] = [];
}
`;

// Line 12, column 21: 'athor'.
const MISSPELT = `import { ItemLoader, Spider, type Response } from 'seine';
import { QuoteItem } from '../items.js';

export class LoadedSpider extends Spider {
  static override name = 'loaded';
  override startUrls = ['http://127.0.0.1:9/'];

  override *parse(response: Response) {
    for (const quote of response.css('div.quote')) {
      const loader = new ItemLoader<QuoteItem>({ selector: quote });
      loader.addCss('text', 'span.text::text');
      loader.addCss('athor', 'small.author::text');
      yield loader.loadItem();
    }
  }
}
`;

const TYPO_LINE = `error TS2345: Argument of type '"athor"' is not assignable to parameter of type 'keyof QuoteItem'.`;
const NOT_INSTALLED = 'TypeScript is not installed in this project, so its types were not checked: add it with `npm install --save-dev typescript`\n';
const CONTRACTS_OK = '\n----------------------------------------------------------------------\nRan 0 contracts in 0.000s\n\nOK\n';

/** Standard error with the contracts' run time fixed, as it varies with the machine's load. */
const stderrOf = (run: { stderr: string }): string => run.stderr.replace(/^Ran 0 contracts in \d+\.\d{3}s$/m, 'Ran 0 contracts in 0.000s');

let dir: string;
let count = 0;

/** A new project; `typescript`: link this checkout's compiler into its node_modules. */
async function newProject(options: { typescript: boolean; misspelt?: boolean }): Promise<string> {
  const name = `tutorial${(count += 1)}`;
  expect((await runSeine(['startproject', name], dir)).status).toBe(0);
  const project = join(dir, name);
  // What `npm install` in the project would provide, linked from this checkout.
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(ROOT, join(project, 'node_modules', 'seine'));
  symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'));
  if (options.typescript) symlinkSync(join(ROOT, 'node_modules', 'typescript'), join(project, 'node_modules', 'typescript'));
  expect((await runSeine(['genspider', 'example', 'example.com'], project)).status).toBe(0);
  if (options.misspelt === true) {
    writeFileSync(join(project, name, 'items.ts'), ITEMS);
    writeFileSync(join(project, name, 'spiders', 'loaded.ts'), MISSPELT);
  }
  return project;
}

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'seine-check-types-'));
}, TIMEOUT);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seine check type-checks the project with its own TypeScript first', () => {
  it('a fresh project passes: one line naming the compiler, then the contracts, exit status 0', async () => {
    const project = await newProject({ typescript: true });
    const run = await runSeine(['check'], project);
    expect(stderrOf(run)).toBe(`Type check passed (TypeScript ${TS_VERSION})\n${CONTRACTS_OK}`);
    expect(run.status).toBe(0);
  }, TIMEOUT);

  it("a misspelt ItemLoader field is an error at file:line:col, the contracts still run, exit status 1", async () => {
    const project = await newProject({ typescript: true, misspelt: true });
    const name = `tutorial${count}`;
    const run = await runSeine(['check'], project);
    expect(stderrOf(run)).toBe(
      `${name}/spiders/loaded.ts:12:21 - ${TYPO_LINE}\n` +
        `Type check failed (TypeScript ${TS_VERSION}): 1 error; \`seine check --no-typecheck\` checks the contracts without it\n${CONTRACTS_OK}`,
    );
    expect(run.status).toBe(1);
    // Paths are given from where the command runs, so a terminal can open them.
    const inside = await runSeine(['check'], join(project, name, 'spiders'));
    expect(inside.stderr.split('\n')[0]).toBe(`loaded.ts:12:21 - ${TYPO_LINE}`);
    expect(inside.status).toBe(1);
  }, TIMEOUT);

  it('--no-typecheck runs the contracts only', async () => {
    const project = await newProject({ typescript: true, misspelt: true });
    const run = await runSeine(['check', '--no-typecheck'], project);
    expect(stderrOf(run)).toBe(CONTRACTS_OK);
    expect(run.status).toBe(0);
  }, TIMEOUT);

  it('without TypeScript in the project: one line saying how to add it, then the contracts', async () => {
    // This checkout has TypeScript: the project's is looked up from the project's folder, not from seine's.
    const project = await newProject({ typescript: false, misspelt: true });
    const run = await runSeine(['check'], project);
    expect(stderrOf(run)).toBe(`${NOT_INSTALLED}${CONTRACTS_OK}`);
    expect(run.status).toBe(0);
  }, TIMEOUT);

  it('-l lists without type-checking', async () => {
    const project = await newProject({ typescript: true, misspelt: true });
    const run = await runSeine(['check', '-l'], project);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, TIMEOUT);
});
