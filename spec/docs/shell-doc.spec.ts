/**
 * docs/shell.md's examples, run as written against the bundled demo site
 * (`seine demo --serve`): the opening session (typed into the ts console
 * through a pseudo-terminal) and the scripted session, each compared with
 * the output the page shows.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoSite, type DemoSite } from '../../src/demo/index.js';
import { ensureBuilt, ROOT } from '../cli/fixtures/run-seine.js';
import { Terminal } from '../shell/fixtures/terminal.js';

const DOC = readFileSync(join(ROOT, 'docs', 'shell.md'), 'utf8');
const DOC_SITE = 'http://127.0.0.1:8000/';

let site: DemoSite;
let home: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startDemoSite();
  home = mkdtempSync(join(tmpdir(), 'seine-shell-doc-'));
});

afterAll(async () => {
  await site.close();
  rmSync(home, { recursive: true, force: true });
});

const onOurSite = (text: string): string => text.replaceAll(DOC_SITE, site.url).replaceAll('127.0.0.1:8000', new URL(site.url).host);

/** The fenced blocks of the doc, in order. */
function blocks(): string[] {
  return [...DOC.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe('docs/shell.md', () => {
  it('the opening session shows what the ts console shows', async () => {
    const session = blocks().find((b) => b.startsWith('$ npx seine shell'))!;
    const [command, ...shown] = onOurSite(session).trimEnd().split('\n');
    const args = command!.replace(/^\$ npx seine /, '').split(' ').map((a) => a.replace(/^'|'$/g, ''));
    const t = new Terminal(args, { cwd: home, env: { HOME: home } });
    try {
      await t.waitFor(/seine> $/);
      const banner = shown.slice(0, shown.findIndex((line) => line.startsWith('seine> ')));
      expect(t.text.split('seine> ')[0]!.trimEnd()).toBe(banner.join('\n'));
      // Each `seine> input` line is typed; what follows it up to the next prompt is the expected output.
      const rest = shown.slice(banner.length);
      for (let i = 0; i < rest.length; i++) {
        const input = rest[i]!.slice('seine> '.length);
        const expected: string[] = [];
        while (i + 1 < rest.length && !rest[i + 1]!.startsWith('seine> ')) expected.push(rest[++i]!);
        const output = (await t.run(input)).split('\n').slice(1, -1);
        expect(output).toEqual(expected);
      }
    } finally {
      t.kill();
    }
  }, 30_000);

  it('the -c example prints what the page shows', async () => {
    const example = blocks().find((b) => b.includes(' -c '))!;
    const [command, ...shown] = onOurSite(example).trimEnd().split('\n');
    const line = command!.replace(/^\$ npx seine /, `node ${join(ROOT, 'bin', 'seine.js')} `);
    const { stdout } = await promisify(execFile)('bash', ['-c', line], { cwd: home, env: { ...process.env, HOME: home }, encoding: 'utf8' });
    expect(stdout.trimEnd().split('\n')).toEqual(shown);
  }, 30_000);

  it('the scripted session prints what the page shows', async () => {
    const script = blocks().find((b) => b.startsWith('$ printf'))!;
    const lines = onOurSite(script).trimEnd().split('\n');
    const end = lines.findIndex((line) => !line.endsWith('\\')) + 1;
    const command = lines.slice(0, end).join('\n').replace(/^\$ /, '').replaceAll('npx seine shell', `node ${join(ROOT, 'bin', 'seine.js')} shell`);
    // Not execFileSync: the demo site answers from this very process.
    const { stdout: output } = await promisify(execFile)('bash', ['-c', command], { cwd: home, env: { ...process.env, HOME: home }, encoding: 'utf8' });
    expect(output.trimEnd().split('\n')).toEqual(lines.slice(end));
  }, 30_000);
});
