/**
 * Runs the real `bin/seine.js` in a child process. It loads dist/, so the
 * build is brought up to date first when any src/ file is newer than
 * dist/cli/main.js (`npm test` builds before running jest, so usually
 * nothing is rebuilt here).
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SEINE_VERSION } from '../../src/version.js';
import { ensureBuilt, ROOT } from './fixtures/run-seine.js';

const run = promisify(execFile);

interface Result {
  status: number;
  stdout: string;
  stderr: string;
}

async function seine(...args: string[]): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(ROOT, 'bin', 'seine.js'), ...args], { cwd: ROOT });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { status: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
}, 120_000);

describe('bin/seine.js', () => {
  it('prints the version and exits 0', async () => {
    expect(await seine('version')).toEqual({ status: 0, stdout: `seine ${SEINE_VERSION}\n`, stderr: '' });
  });

  it('prints the component versions with -v', async () => {
    const result = await seine('version', '-v');
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n').slice(0, 2)).toEqual([`seine       : ${SEINE_VERSION}`, `Node.js     : ${process.versions.node}`]);
  });

  it('prints the usage with no command and exits 0', async () => {
    const result = await seine();
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Available commands:\n  bench         Run quick benchmark test\n  check         Check spider contracts\n  crawl         Run a spider\n  demo          Crawl a bundled demo site with the tutorial spider\n  deploy        Deploy the project to a seine serve (scrapyd) server\n  fetch         Fetch a URL using the seine downloader\n  frontier      Show, pause, resume or clear a crawl shared through Redis\n  genspider     Generate new spider using pre-defined templates\n  list          List available spiders\n  parse         Parse URL (using its spider) and print the results\n  runspider     Run a self-contained spider (without creating a project)\n  serve         Run crawls as a service with scrapyd\'s JSON API\n  settings      Get settings values\n  shell         Interactive scraping console\n  startproject  Create new project\n  version       Print seine version\n  view          Open URL in browser, as seen by seine\n');
  });

  it('prints one line and exits 2 for an unknown command', async () => {
    expect(await seine('crawll')).toEqual({
      status: 2,
      stdout: '',
      stderr: "seine: unknown command 'crawll' — run 'seine --help' for the list\n",
    });
  });

  it('prints one line and exits 2 for an unknown option', async () => {
    expect(await seine('version', '--bogus')).toEqual({
      status: 2,
      stdout: '',
      stderr: "seine: unknown option '--bogus' — run 'seine version --help' for usage\n",
    });
  });

  it('prints one line without a stack trace and exits 1 for a bad -s value', async () => {
    expect(await seine('settings', '--getint', 'CONCURRENT_REQUESTS', '-s', 'CONCURRENT_REQUESTS=abc')).toEqual({
      status: 1,
      stdout: '',
      stderr: "seine: Setting CONCURRENT_REQUESTS expects an integer, got 'abc' (from -s CONCURRENT_REQUESTS=abc)\n",
    });
  });

  it('logs the startup lines to stderr with -L INFO', async () => {
    const result = await seine('settings', '--get', 'BOT_NAME', '-L', 'INFO');
    expect(result.stdout).toBe('seinebot\n');
    expect(result.stderr).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\[seine\\.utils\\.log\\] INFO: seine ${SEINE_VERSION.replace(/\./g, '\\.')} started \\(bot: seinebot\\)\n`),
    );
    expect(result.stderr.split('\n')[1]).toMatch(/\[seine\.utils\.log\] INFO: Versions: Node\.js \d+\.\d+\.\d+, rxjs /);
  });
});
