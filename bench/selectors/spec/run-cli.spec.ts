import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parselUnavailable } from '../parsel-runner.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FAKE_ENGINE = fileURLToPath(new URL('./fixtures/fake-engine.ts', import.meta.url));
const FAST = ['--seconds', '0.05', '--warmup', '0.01', '--repeat', '1', '--listing-pages', '3'];

function bench(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/selectors/run.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const withParsel = parselUnavailable() === null ? it : it.skip;

describe('npm run bench:selectors', () => {
  withParsel('reports failing queries and disagreeing results, and still prints the whole table', () => {
    const { status, stdout } = bench([...FAST, '--engine', FAKE_ENGINE]);
    expect(status).toBe(0);
    const lines = stdout.split('\n');
    expect(lines).toContain(
      "WARNING: seine and parsel extract different things from listing (seine 33 strings, parsel 412); the ratio compares unequal work. " +
        'First difference: listing-0001.html, entry 1 price (css:.price::text .get()): seine gave an error (Error: fake engine cannot run css:.price::text), parsel 1 string',
    );
    expect(lines).toContain("seine error on page-10k.html (left out of both engines' timing): … and 14 more (--json FILE records them all)");
    expect(lines).toContain(
      "seine error on listing (left out of both engines' timing): listing-0001.html: entry 1 price (css:.price::text .get()): Error: fake engine cannot run css:.price::text",
    );
    expect(lines.find((l) => l.startsWith('listing (3 × 12.5 KB)'))).toMatch(/ PASS\*$/);
    expect(lines).toContain('* seine left out queries that threw (parsel skipped them too), or the two extracted different strings: see above.');
  }, 60_000);

  it('says the comparison was skipped, and how to enable it, when parsel cannot be imported', () => {
    const { status, stdout } = bench([...FAST, '--engine', FAKE_ENGINE], { SEINE_BENCH_PYTHON: '/nonexistent/python3' });
    expect(status).toBe(0);
    expect(stdout).toContain(
      "parsel: comparison skipped: /nonexistent/python3 could not be run (spawnSync /nonexistent/python3 ENOENT). To enable it: apt-get install -y python3-scrapy (or python3-parsel) (it must import in /nonexistent/python3; SEINE_BENCH_PYTHON picks another interpreter).",
    );
    expect(stdout).toMatch(/\nlisting \(3 × 12\.5 KB\) +[\d.,]+ +— +— +≥ 2\.5× +—\n/);
  }, 60_000);

  it('rejects an unknown option, pointing to --help', () => {
    const { status, stderr } = bench(['--bogus']);
    expect(status).toBe(1);
    expect(stderr.trim()).toBe("bench:selectors: Unknown option '--bogus'; npm run bench:selectors -- --help lists the options");
  });

  it('rejects a bad option value with the value and an example', () => {
    const { status, stderr } = bench(['--repeat', '0']);
    expect(status).toBe(1);
    expect(stderr.trim()).toBe('bench:selectors: --repeat "0" is not a positive whole number; e.g. --repeat 3');
  });
});
