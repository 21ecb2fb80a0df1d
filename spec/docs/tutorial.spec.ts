/**
 * docs/tutorial.md, followed as a new user would: every command it shows
 * (`npx seine …` runs the real binary, `node bin/seine.js`), in order, in a
 * fresh folder, with the spider files it shows saved where it says, against
 * the demo site started by the tutorial's own `seine demo --serve --port 8000`.
 * Each output, file and folder the tutorial shows is compared with the real
 * one (see fixtures/tutorial-steps.ts for the hidden markers that say which
 * block is what), and the counts its prose gives (20, 40, 100, 22 quotes) are
 * checked after the commands they follow.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { QUOTES, type DemoQuote } from '../../src/demo/index.js';
import { ensureBuilt, logMessages, ROOT, runSeine, startSeine, type RunningSeine, type SeineRun } from '../cli/fixtures/run-seine.js';
import { missingLines, shownContents, treePaths } from './fixtures/shown-output.js';
import { tutorialSteps, type TutorialStep } from './fixtures/tutorial-steps.js';

const STEPS = tutorialSteps(readFileSync(join(ROOT, 'docs', 'tutorial.md'), 'utf8'));
const TUTORIAL_SITE = 'http://127.0.0.1:8000/';

let home: string;
let cwd: string;
let site = TUTORIAL_SITE;
let demo: RunningSeine | null = null;
let last: SeineRun | null = null;
const seen = new Map<string, number>();

function item(quote: DemoQuote) {
  return { text: `“${quote.text}”`, author: quote.author, tags: [...quote.tags] };
}

/** The tutorial's URLs point at port 8000; when that port was taken, at the site's real one. */
function onOurSite(text: string): string {
  return text.replaceAll(TUTORIAL_SITE, site).replaceAll('127.0.0.1:8000', new URL(site).host);
}

function readJsonLines(path: string): unknown[] {
  return readFileSync(join(cwd, path), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
}

function crawledUrls(run: SeineRun): string[] {
  return logMessages(run.stderr).flatMap((message) => /^Crawled \(\d+\) <GET (\S+)>/.exec(message)?.[1] ?? []);
}

/** Starts `seine demo --serve` as given, or on a free port when 8000 is taken; resolves with the line it prints. */
async function serveDemo(args: string[]): Promise<SeineRun> {
  const start = (argv: string[]) =>
    new Promise<{ run: RunningSeine; line: string | null }>((resolve) => {
      const run = startSeine(argv, home);
      let out = '';
      run.child.stdout!.on('data', (chunk: Buffer | string) => {
        out += String(chunk);
        if (out.includes('\n')) resolve({ run, line: out.split('\n')[0]! });
      });
      void run.done.then(() => resolve({ run, line: null }));
    });
  let started = await start(args);
  if (started.line == null) {
    const failed = await started.run.done;
    expect(failed.stderr).toMatch(/the port is in use/);
    started = await start(args.map((arg) => (arg === '8000' ? '0' : arg)));
  }
  demo = started.run;
  site = /at (http:\S+) /.exec(started.line ?? '')?.[1] ?? '';
  expect(site).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  return { status: 0, signal: null, stdout: `${started.line}\n`, stderr: '' };
}

// What the prose says each run does, beyond the blocks it shows. Keyed by the command and its occurrence.
const AFTER: Record<string, (run: SeineRun) => Promise<void> | void> = {
  'npx seine startproject tutorial#1': () => {
    const settings = join(cwd, 'tutorial', 'settings.ts');
    const text = readFileSync(settings, 'utf8');
    // What the tutorial says of a new project's settings.
    expect(text).toContain('export const ROBOTSTXT_OBEY = true;');
    expect(text).toContain('export const CONCURRENT_REQUESTS_PER_DOMAIN = 1;');
    expect(text).toContain('export const DOWNLOAD_DELAY = 1;');
    // A second between requests would make the tutorial's 9 crawls take about 25 s: the test's only change.
    writeFileSync(settings, text.replace('export const DOWNLOAD_DELAY = 1;', 'export const DOWNLOAD_DELAY = 0;'));
  },
  'npx seine crawl quotes#1': async () => {
    for (const page of [1, 2]) {
      const body = await (await fetch(`${site}page/${page}/`)).text();
      expect(readFileSync(join(cwd, `quotes-${page}.html`), 'utf8')).toBe(body);
    }
  },
  'npx seine crawl quotes#2': (run) => {
    expect(logMessages(run.stderr).filter((message) => message.startsWith('Saved file'))).toEqual(['Saved file quotes-1.html', 'Saved file quotes-2.html']);
  },
  'npx seine crawl quotes#3': (run) => {
    expect(logMessages(run.stderr).filter((message) => message.startsWith('Scraped from'))).toHaveLength(20);
  },
  'npx seine crawl quotes -O quotes.json#1': () => {
    expect(JSON.parse(readFileSync(join(cwd, 'quotes.json'), 'utf8'))).toEqual(QUOTES.slice(0, 20).map(item));
  },
  'npx seine crawl quotes -o quotes.jsonl#1': () => {
    expect(readJsonLines('quotes.jsonl')).toEqual(QUOTES.slice(0, 20).map(item));
  },
  'npx seine crawl quotes -o quotes.jsonl#2': () => {
    const twenty = QUOTES.slice(0, 20).map(item);
    expect(readJsonLines('quotes.jsonl')).toEqual([...twenty, ...twenty]);
  },
  'npx seine crawl quotes -O quotes.json#2': (run) => {
    expect(JSON.parse(readFileSync(join(cwd, 'quotes.json'), 'utf8'))).toEqual(QUOTES.map(item));
    expect(crawledUrls(run)).toEqual([`${site}robots.txt`, ...Array.from({ length: 10 }, (_, i) => `${site}page/${i + 1}/`)]);
  },
  'npx seine crawl quotes -a tag=humor -O humor.json#1': (run) => {
    const humor = JSON.parse(readFileSync(join(cwd, 'humor.json'), 'utf8')) as unknown[];
    expect(humor).toHaveLength(22);
    expect(humor).toEqual(QUOTES.filter((quote) => quote.tags.includes('humor')).map(item));
    expect(crawledUrls(run)).toEqual([`${site}robots.txt`, `${site}tag/humor/`, `${site}tag/humor/page/2/`, `${site}tag/humor/page/3/`]);
  },
  'npx seine crawl quotes -O quotes.json#3': () => {
    expect(JSON.parse(readFileSync(join(cwd, 'quotes.json'), 'utf8'))).toEqual(QUOTES.map(item));
  },
};

async function runCommand(command: string): Promise<void> {
  const [npx, seine, ...args] = command.split(/\s+/);
  expect([npx, seine]).toEqual(['npx', 'seine']);
  const key = `${command}#${(seen.get(command) ?? 0) + 1}`;
  seen.set(command, (seen.get(command) ?? 0) + 1);
  last = args[0] === 'demo' && args.includes('--serve') ? await serveDemo(args) : await runSeine(args, cwd);
  expect({ status: last.status, errors: logMessages(last.stderr).filter((line) => / (ERROR|CRITICAL): /.test(line)) }).toEqual({ status: 0, errors: [] });
  if (args[0] === 'startproject') cwd = join(home, args[1]!);
  await AFTER[key]?.(last);
}

function listTree(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? [`${relative(home, path)}/`, ...listTree(path)] : [relative(home, path)];
  });
}

async function follow(step: TutorialStep): Promise<void> {
  switch (step.kind) {
    case 'command':
      return runCommand(step.command);
    case 'file':
      mkdirSync(dirname(join(cwd, step.path)), { recursive: true });
      writeFileSync(join(cwd, step.path), onOurSite(step.text));
      return;
    case 'output': {
      // The telnet console takes the first free port from 6023, which another program may hold.
      const shown = onOurSite(step.text).replaceAll('/home/you', home).replace(/127\.0\.0\.1:6023$/m, '127.0.0.1:…');
      expect(missingLines(shown, `${last!.stdout}${last!.stderr}`)).toEqual([]);
      return;
    }
    case 'contents': {
      const shown = onOurSite(step.text);
      const lines = shown.replace(/\n$/, '').split('\n');
      const cut = lines.indexOf('…');
      expect(shownContents(shown, readFileSync(join(cwd, step.path), 'utf8'))).toEqual({
        head: cut < 0 ? lines : lines.slice(0, cut),
        tail: cut < 0 ? [] : lines.slice(cut + 1),
      });
      return;
    }
    case 'tree':
      expect(listTree(cwd).sort()).toEqual(treePaths(step.text).slice(1).sort());
      return;
  }
}

function title(step: TutorialStep, index: number): string {
  const what = step.kind === 'command' ? step.command : step.kind === 'file' || step.kind === 'contents' ? `${step.kind} ${step.path}` : step.kind;
  return `step ${index + 1}: ${what}`;
}

describe('docs/tutorial.md', () => {
  beforeAll(async () => {
    expect(await ensureBuilt()).toBe(true);
    home = mkdtempSync(join(tmpdir(), 'seine-tutorial-'));
    cwd = home;
  }, 120_000);

  afterAll(async () => {
    if (demo != null) {
      demo.child.kill('SIGINT');
      await demo.done;
    }
    if (home != null && existsSync(home)) rmSync(home, { recursive: true, force: true });
  });

  it('marks its steps: the demo site, a project, five spiders, the shown outputs and files', () => {
    expect(STEPS.map((step) => step.kind)).toEqual([
      'command', 'output', 'command', 'output', 'tree',
      'file', 'command', 'output',
      'file', 'command',
      'file', 'command', 'output',
      'command', 'contents',
      'command', 'command', 'contents',
      'file', 'command',
      'file', 'command', 'command',
    ]);
  });

  STEPS.forEach((step, index) => {
    it(title(step, index), () => follow(step), 20_000);
  });
});
