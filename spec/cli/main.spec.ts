import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { defineCommand, type SeineCommand } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { findCommandName, runCli } from '../../src/cli/main.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { LogBus } from '../../src/log/log-bus.js';
import { SettingsError } from '../../src/settings/settings-error.js';
import { SEINE_VERSION } from '../../src/version.js';

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

const FIXED_TIME = new Date(2024, 0, 2, 3, 4, 5);

async function run(argv: string[], commands?: readonly SeineCommand[], logBus = new LogBus({ now: () => FIXED_TIME })): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const status = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    logBus,
    ...(commands === undefined ? {} : { commands }),
  });
  return { status, stdout, stderr };
}

function packageVersion(name: string): string {
  const url = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

const PLATFORM = `${os.type()}-${os.release()}-${os.machine()}`;

describe('seine with no command', () => {
  it('prints the usage with the available commands and exits 0', async () => {
    const result = await run([]);
    expect(result).toEqual({
      status: 0,
      stderr: '',
      stdout: [
        `seine ${SEINE_VERSION}`,
        '',
        'Usage:',
        '  seine <command> [options] [args]',
        '',
        'Available commands:',
        '  bench         Run quick benchmark test',
        '  check         Check spider contracts',
        '  crawl         Run a spider',
        '  demo          Crawl a bundled demo site with the tutorial spider',
        '  deploy        Deploy the project to a seine serve (scrapyd) server',
        '  fetch         Fetch a URL using the seine downloader',
        '  frontier      Show, pause, resume or clear a crawl shared through Redis',
        '  genspider     Generate new spider using pre-defined templates',
        '  list          List available spiders',
        '  parse         Parse URL (using its spider) and print the results',
        '  runspider     Run a self-contained spider (without creating a project)',
        "  serve         Run crawls as a service with scrapyd's JSON API",
        '  settings      Get settings values',
        '  shell         Interactive scraping console',
        '  startproject  Create new project',
        '  version       Print seine version',
        '  view          Open URL in browser, as seen by seine',
        '',
        'Global options:',
        '  -L, --loglevel LEVEL  log level: DEBUG, INFO, WARNING, ERROR or CRITICAL (default: DEBUG)',
        '      --logfile FILE    write the log to FILE instead of stderr',
        '      --nolog           disable logging completely',
        '  -s, --set NAME=VALUE  set/override a setting (may be repeated)',
        '  -h, --help            show help',
        '',
        'Use "seine <command> -h" to see more info about a command',
        '',
      ].join('\n'),
    });
  });

  it('prints the same usage for --help and -h', async () => {
    const plain = await run([]);
    expect(await run(['--help'])).toEqual(plain);
    expect(await run(['-h'])).toEqual(plain);
  });

  it('rejects an unknown option with one line and exit status 2', async () => {
    expect(await run(['--bogus'])).toEqual({
      status: 2,
      stdout: '',
      stderr: "seine: unknown option '--bogus' — run 'seine --help' for usage\n",
    });
  });
});

describe('seine <unknown command>', () => {
  it('prints one line naming the command and exits 2', async () => {
    expect(await run(['crawll'])).toEqual({
      status: 2,
      stdout: '',
      stderr: "seine: unknown command 'crawll' — run 'seine --help' for the list\n",
    });
  });

  it('finds the command after global options and their values', async () => {
    expect((await run(['-L', 'INFO', '-s', 'A=1', 'crawll'])).stderr).toBe(
      "seine: unknown command 'crawll' — run 'seine --help' for the list\n",
    );
  });
});

describe('seine version', () => {
  it('prints the version', async () => {
    expect(await run(['version'])).toEqual({ status: 0, stdout: `seine ${SEINE_VERSION}\n`, stderr: '' });
  });

  it('prints aligned component versions with -v, like scrapy version -v', async () => {
    const expected = [
      `seine       : ${SEINE_VERSION}`,
      `Node.js     : ${process.versions.node}`,
      `rxjs        : ${packageVersion('rxjs')}`,
      `got         : ${packageVersion('got')}`,
      `htmlparser2 : ${packageVersion('htmlparser2')}`,
      `yargs       : ${packageVersion('yargs')}`,
      `Platform    : ${PLATFORM}`,
      '',
    ].join('\n');
    expect(await run(['version', '-v'])).toEqual({ status: 0, stdout: expected, stderr: '' });
    expect((await run(['version', '--verbose'])).stdout).toBe(expected);
  });

  it('prints its help with the global options and exits 0', async () => {
    const result = await run(['version', '--help']);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').slice(0, 4)).toEqual(['seine version [options]', '', 'Print seine version', '']);
    expect(result.stdout).toContain('  -s, --set       set/override setting NAME=VALUE (may be repeated)');
    expect(result.stdout).toContain('  -v, --verbose');
  });

  it('rejects an unknown option with one line and exit status 2', async () => {
    expect(await run(['version', '--bogus'])).toEqual({
      status: 2,
      stdout: '',
      stderr: "seine: unknown option '--bogus' — run 'seine version --help' for usage\n",
    });
  });

  it('a missing argument says what to type, not yargs\' "not enough non-option arguments"', async () => {
    expect(await run(['crawl'])).toEqual({
      status: 2,
      stdout: '',
      stderr: "seine: missing <spider>: write seine crawl <spider> (seine list shows the spiders of the project) — run 'seine crawl --help' for usage\n",
    });
    expect((await run(['fetch'])).stderr).toBe("seine: missing <url>: write seine fetch <url> — run 'seine fetch --help' for usage\n");
    expect((await run(['frontier', 'quotes'])).stderr).toBe(
      "seine: missing <action>: write seine frontier <spider> <action> — run 'seine frontier --help' for usage\n",
    );
  });

  it('quotes unknown options as typed', async () => {
    expect((await run(['version', '--foo-bar', '-x'])).stderr).toBe(
      "seine: unknown options '--foo-bar', '-x' — run 'seine version --help' for usage\n",
    );
    expect((await run(['version', '--fooBar=3'])).stderr).toBe(
      "seine: unknown option '--fooBar' — run 'seine version --help' for usage\n",
    );
  });

  it('rejects an extra argument', async () => {
    expect(await run(['version', 'extra'])).toEqual({
      status: 2,
      stdout: '',
      stderr: "seine: unexpected argument 'extra' — run 'seine version --help' for usage\n",
    });
  });

  it('rejects an option without its value', async () => {
    expect((await run(['version', '-L'])).stderr).toBe(
      "seine: option '-L' needs a value — run 'seine version --help' for usage\n",
    );
    expect((await run(['version', '--set'])).stderr).toBe(
      "seine: option '--set' needs a value — run 'seine version --help' for usage\n",
    );
  });

  it('rejects an invalid --loglevel with exit status 2', async () => {
    expect(await run(['version', '-L', 'LOUD'])).toEqual({
      status: 2,
      stdout: '',
      stderr:
        "seine: invalid --loglevel 'LOUD': use one of DEBUG, INFO, WARNING, ERROR, CRITICAL — run 'seine version --help' for usage\n",
    });
  });

  it('rejects a -s value without = with exit status 2', async () => {
    expect(await run(['version', '-s', 'FOO'])).toEqual({
      status: 2,
      stdout: '',
      stderr: "seine: invalid -s value 'FOO': it has no '='; use -s NAME=VALUE, e.g. -s CONCURRENT_REQUESTS=8\n",
    });
  });
});

describe('seine settings', () => {
  it('prints a default value with --get', async () => {
    expect(await run(['settings', '--get', 'CONCURRENT_REQUESTS'])).toEqual({ status: 0, stdout: '16\n', stderr: '' });
    expect((await run(['settings', '--get', 'BOT_NAME'])).stdout).toBe('seinebot\n');
  });

  it('prints objects, lists and null as JSON', async () => {
    expect((await run(['settings', '--get', 'RETRY_HTTP_CODES'])).stdout).toBe('[500,502,503,504,522,524,408,429]\n');
    expect((await run(['settings', '--get', 'LOG_FILE'])).stdout).toBe('null\n');
    expect((await run(['settings', '--get', 'NOT_A_SETTING'])).stdout).toBe('null\n');
    expect((await run(['settings', '--get', 'DEFAULT_REQUEST_HEADERS'])).stdout).toBe(
      '{"Accept":"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8","Accept-Language":"en"}\n',
    );
  });

  it('prints the -s value, read as the setting type', async () => {
    expect((await run(['settings', '--get', 'CONCURRENT_REQUESTS', '-s', 'CONCURRENT_REQUESTS=4'])).stdout).toBe('4\n');
    expect((await run(['-s', 'MY_SETTING=a=b', 'settings', '--get', 'MY_SETTING'])).stdout).toBe('a=b\n');
  });

  it('prints typed values with --getbool, --getint, --getfloat and --getlist, one line each', async () => {
    const result = await run([
      'settings', '--getlist', 'X', '--getfloat', 'DOWNLOAD_DELAY', '--getint', 'RETRY_TIMES', '--getbool', 'COOKIES_ENABLED',
      '-s', 'X=a,b', '-s', 'DOWNLOAD_DELAY=0.5',
    ]);
    expect(result).toEqual({ status: 0, stdout: 'true\n2\n0.5\n["a","b"]\n', stderr: '' });
  });

  it('prints a clear one-line message and exits 1 when -s gives a value of the wrong type', async () => {
    expect(await run(['settings', '--getint', 'CONCURRENT_REQUESTS', '-s', 'CONCURRENT_REQUESTS=abc'])).toEqual({
      status: 1,
      stdout: '',
      stderr: "seine: Setting CONCURRENT_REQUESTS expects an integer, got 'abc' (from -s CONCURRENT_REQUESTS=abc)\n",
    });
  });

  it('rejects --get without a setting name', async () => {
    expect((await run(['settings', '--get'])).stderr).toBe(
      "seine: option '--get' needs a value — run 'seine settings --help' for usage\n",
    );
  });
});

describe('logging from the CLI', () => {
  it('logs nothing for settings and version, whose command defaults turn logging off', async () => {
    expect((await run(['settings', '--get', 'BOT_NAME'])).stderr).toBe('');
  });

  it('logs the two startup lines under seine.utils.log when --loglevel turns logging on', async () => {
    const result = await run(['settings', '--get', 'BOT_NAME', '-L', 'info', '-s', 'BOT_NAME=tutorial']);
    const versions = [
      `Node.js ${process.versions.node}`,
      `rxjs ${packageVersion('rxjs')}`,
      `got ${packageVersion('got')}`,
      `htmlparser2 ${packageVersion('htmlparser2')}`,
      `yargs ${packageVersion('yargs')}`,
      `Platform ${PLATFORM}`,
    ].join(', ');
    expect(result).toEqual({
      status: 0,
      stdout: 'tutorial\n',
      stderr:
        `2024-01-02 03:04:05 [seine.utils.log] INFO: seine ${SEINE_VERSION} started (bot: tutorial)\n` +
        `2024-01-02 03:04:05 [seine.utils.log] INFO: Versions: ${versions}\n`,
    });
  });

  it('filters by --loglevel', async () => {
    expect((await run(['settings', '-L', 'WARNING'])).stderr).toBe('');
  });

  it('lets --nolog win over --loglevel', async () => {
    expect((await run(['settings', '-L', 'INFO', '--nolog'])).stderr).toBe('');
  });

  it('writes the log to --logfile, appending by default', async () => {
    const dir = mkdtempSync(join(os.tmpdir(), 'seine-cli-'));
    try {
      const file = join(dir, 'seine.log');
      const first = await run(['version', '--logfile', file]);
      const second = await run(['version', '--logfile', file, '-s', 'LOG_SHORT_NAMES=1']);
      expect([first.stderr, second.stderr]).toEqual(['', '']);
      const lines = readFileSync(file, 'utf8').split('\n');
      expect(lines.length).toBe(5);
      expect(lines[0]).toBe(`2024-01-02 03:04:05 [seine.utils.log] INFO: seine ${SEINE_VERSION} started (bot: seinebot)`);
      expect(lines[2]).toBe(`2024-01-02 03:04:05 [seine] INFO: seine ${SEINE_VERSION} started (bot: seinebot)`);
      expect(lines[4]).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails with one line and exit status 1 when the log file cannot be opened', async () => {
    const file = join(os.tmpdir(), 'seine-no-such-dir', 'x', 'seine.log');
    expect(await run(['version', '--logfile', file])).toEqual({
      status: 1,
      stdout: '',
      stderr:
        `seine: Cannot open log file '${file}' (ENOENT: no such file or directory, open '${file}'): ` +
        'check that its folder exists and is writable, or choose another path with --logfile or LOG_FILE\n',
    });
  });

  it('sends command output to the log with LOG_STDOUT', async () => {
    const result = await run(['version', '-L', 'INFO', '-s', 'LOG_STDOUT=true', '-s', 'LOG_FORMAT=[%(name)s] %(message)s']);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n').slice(2)).toEqual([`[stdout] seine ${SEINE_VERSION}`, '']);
  });
});

describe('errors thrown by a command', () => {
  function failing(error: unknown): SeineCommand {
    return defineCommand({
      name: 'fail',
      description: 'Fail on purpose',
      defaultSettings: { LOG_ENABLED: false },
      builder: (parser) => parser,
      handler() {
        throw error;
      },
    });
  }

  it('prints a SeineError message on one line and exits 1', async () => {
    expect(await run(['fail'], [failing(new SettingsError('Setting X is bad:\nreally'))])).toEqual({
      status: 1,
      stdout: '',
      stderr: 'seine: Setting X is bad: really\n',
    });
  });

  it('exits 2 for a UsageError from a handler, with its hint', async () => {
    expect((await run(['fail'], [failing(new UsageError('missing spider name', { command: 'fail' }))])).stderr).toBe(
      "seine: missing spider name — run 'seine fail --help' for usage\n",
    );
  });

  it('prints one line with a hint for an unexpected error, without the stack', async () => {
    expect(await run(['fail'], [failing(new TypeError('x is not a function'))])).toEqual({
      status: 1,
      stdout: '',
      stderr: 'seine: unexpected error: TypeError: x is not a function — rerun with --loglevel DEBUG to see the stack trace\n',
    });
  });

  it('prints the stack after the line when --loglevel DEBUG was given', async () => {
    const error = new TypeError('x is not a function');
    error.stack = 'TypeError: x is not a function\n    at handler (fail.ts:1:1)';
    expect((await run(['fail', '-L', 'DEBUG', '-s', 'LOG_FILE=/dev/null'], [failing(error)])).stderr).toBe(
      'seine: unexpected error: TypeError: x is not a function\nTypeError: x is not a function\n    at handler (fail.ts:1:1)\n',
    );
  });

  it('still prints only the hint when DEBUG is merely the default level', async () => {
    const command = defineCommand({
      name: 'boom',
      description: 'Fail with logging on',
      builder: (parser) => parser,
      handler() {
        throw new RangeError('bad');
      },
    });
    const lines = (await run(['boom', '-s', 'LOG_FORMAT=%(message)s'], [command])).stderr.split('\n');
    expect(lines.slice(2)).toEqual([
      'seine: unexpected error: RangeError: bad — rerun with --loglevel DEBUG to see the stack trace',
      '',
    ]);
  });

  it('uses the handler return value as the exit status', async () => {
    const command = defineCommand({ name: 'three', description: 'Exit 3', builder: (p) => p, handler: () => 3 });
    expect((await run(['three'], [command])).status).toBe(3);
  });
});

describe('command context', () => {
  it('gives the handler settings at priority command and cmdline, and a logger on the bus', async () => {
    const seen: string[] = [];
    const command = defineCommand({
      name: 'inspect',
      description: 'Inspect the context',
      defaultSettings: { LOG_ENABLED: false, CONCURRENT_REQUESTS: 4 },
      builder: (parser) => parser.option('flag', { type: 'boolean' }),
      handler({ args, settings, logger }) {
        seen.push(
          `flag=${String(args.flag)}`,
          `CONCURRENT_REQUESTS=${settings.get('CONCURRENT_REQUESTS')}@${settings.getPriority('CONCURRENT_REQUESTS')}`,
          `BOT_NAME=${settings.get('BOT_NAME')}@${settings.getPriority('BOT_NAME')}`,
          `LOG_ENABLED=${String(settings.get('LOG_ENABLED'))}@${settings.getSource('LOG_ENABLED')}`,
          `logger=${logger.name}`,
        );
      },
    });
    const bus = new LogBus();
    expect((await run(['inspect', '--flag', '-s', 'BOT_NAME=b'], [command], bus)).status).toBe(0);
    expect(seen).toEqual([
      'flag=true',
      'CONCURRENT_REQUESTS=4@10',
      'BOT_NAME=b@40',
      "LOG_ENABLED=false@the 'inspect' command's defaults",
      'logger=seine.commands.inspect',
    ]);
  });

  it('registers only the working commands', () => {
    expect(COMMANDS.map((command) => command.name)).toEqual(['bench', 'check', 'crawl', 'demo', 'deploy', 'fetch', 'frontier', 'genspider', 'list', 'parse', 'runspider', 'serve', 'settings', 'shell', 'startproject', 'version', 'view']);
  });

  it('lists each command as its module defines it (the registry loads a command only to run it)', async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect([command.name, command.description]).toEqual([entry.name, entry.description]);
    }
  });
});

describe('findCommandName', () => {
  it('skips options and the values of global options that take one', () => {
    expect(findCommandName(['-L', 'INFO', '--nolog', '-s', 'A=1', 'crawl', 'quotes'])).toBe('crawl');
    expect(findCommandName(['--logfile', 'x.log', 'version'])).toBe('version');
    expect(findCommandName(['--loglevel=INFO', 'version'])).toBe('version');
    expect(findCommandName(['-h'])).toBeUndefined();
    expect(findCommandName([])).toBeUndefined();
  });
});
