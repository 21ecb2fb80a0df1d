#!/usr/bin/env node
// The `seine` command. The CLI itself is TypeScript compiled to dist/ by
// `npm run build` (run on install by `prepare`); this file only starts it.
// `seine`, `seine --help` and `seine version` are answered before the CLI
// (its option parser, settings and logging) is loaded: they need none of it.
import { setFlagsFromString } from 'node:v8';

const argv = process.argv.slice(2);

// V8's optimizing compiler inlines up to 920 bytecodes into each function it
// optimizes. A 2,000-page crawl spent ~1.1 s of its ~4 s of CPU compiling on
// V8's helper threads, mostly large inlined bodies; at 150, the benchmark
// crawl takes 13 % less CPU (3.91 → 3.40 s, five alternated runs), 10 % less
// at 20,000 pages, and 2–3 MB less memory (docs/performance.md, "Issue 26:
// the floor"). Set before any code warms up; a value given to node on its
// command line or in NODE_OPTIONS wins.
const INLINING_BUDGET = 'max-inlined-bytecode-size-cumulative';
const nodeFlags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
if (!nodeFlags.some((flag) => flag.replace(/_/g, '-').startsWith(`--${INLINING_BUDGET}`))) setFlagsFromString(`--${INLINING_BUDGET}=150`);

// `seine list | head -1`: the reader has gone, so nothing more can be shown;
// stop quietly as other command-line tools do instead of a stack trace.
// A `-o -` feed listens too: it stops that feed and lets the crawl close its
// other feeds (src/feeds/stdout-storage.ts), so its errors are left to it.
const onStdoutError = (error) => {
  if (process.stdout.listenerCount('error') > 1) return;
  if (error?.code === 'EPIPE') process.exit(0);
  throw error;
};
process.stdout.on('error', onStdoutError);

async function load(path) {
  try {
    return await import(path);
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(path.slice(3))) {
      process.stderr.write("seine: the CLI is not built (dist/cli/main.js is missing) — run 'npm run build' in seine's folder\n");
      return undefined;
    }
    throw error;
  }
}

const quick = await load('../dist/cli/quick-answer.js');
// Before the CLI's modules load: V8 would grow its young generation to 32 MB
// while they do, and never give it back (docs/performance.md, "Peak memory");
// it stays at its first size until a crawl's engine starts.
const heap = quick === undefined ? undefined : await load('../dist/extensions/heap-targets.js');
heap?.keepHeapNear(heap.STARTUP_HEAP_TARGETS);
const answer = quick?.quickAnswer(argv, process.cwd());
if (quick === undefined) {
  process.exitCode = 1;
} else if (answer !== undefined) {
  process.stdout.write(answer);
} else {
  const main = await load('../dist/cli/main.js');
  process.exitCode = main === undefined ? 1 : await main.runCli(argv);
}
