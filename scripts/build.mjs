#!/usr/bin/env node
// `npm run build`: compiles src/ to dist/, then bundles dist/'s JavaScript.
//
// 1. tsc (tsconfig.build.json) writes dist/: JavaScript, declarations and
//    source maps, one file per module.
// 2. esbuild bundles that JavaScript from the entry points bin/seine.js and
//    package.json's exports name, with code splitting: every module of
//    seine, and the small packages it imports, end up in a few chunks that
//    the entry points share, so `seine`, `seine/operators`, `seine/shell` and
//    the CLI hold one copy of each class. The per-module JavaScript is then
//    replaced by the bundle; the declarations stay.
//
// Why: Node 20's module loader spends ~0.25 ms resolving, reading and
// compiling each module, and a spider's `import 'seine'` loaded ~390 of them
// (`seine runspider` of an empty spider: 0.60 s before, 0.40 s bundled, on the
// development machine; docs/performance.md, "Start-up").
//
// rxjs is bundled from its ES2015 modules, with only what seine uses: its
// `node` entry is the CommonJS build, 224 files that took 0.08 s of CPU and
// +11 MB of RSS to load (`require('rxjs')` alone), in every crawl. Users who
// import rxjs themselves to compose crawls get their own copy, which works
// with seine's streams: RxJS operators and `from()` meet an Observable by its
// `subscribe`, `lift` and Symbol.observable, not by its class
// (spec/docs runs the composing examples against this build).
//
// Left outside the bundle, loaded from node_modules as before: got (loaded
// with the first download; only HTTP/2 uses it), esbuild and tsx
// (native binary, loader hooks), playwright-core (loaded with the first
// browser page), and what seine loads with createRequire on first use
// (ioredis, tough-cookie, csv-parse, csv-stringify, re2-wasm).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
// A sibling of dist/, at its depth: esbuild writes the source maps' paths relative to where it writes the bundle,
// and they must still hold once the files are moved into dist/.
const STAGING = join(ROOT, '.dist-bundle');

const ENTRY_POINTS = {
  index: 'dist/index.js',
  'operators/index': 'dist/operators/index.js',
  'shell/index': 'dist/shell/index.js',
  'cli/main': 'dist/cli/main.js',
  'cli/quick-answer': 'dist/cli/quick-answer.js',
  'extensions/heap-targets': 'dist/extensions/heap-targets.js',
};
const EXTERNAL = ['got', 'esbuild', 'tsx', 'playwright-core'];

/** `rxjs` and `rxjs/operators` from rxjs's ES2015 modules (its package.json lists them under `es2015`), which bundle tree-shaken. */
const RXJS_ESM = join(dirname(createRequire(import.meta.url).resolve('rxjs/package.json')), 'dist', 'esm');
const rxjsAsModules = {
  name: 'rxjs-as-modules',
  setup(builder) {
    builder.onResolve({ filter: /^rxjs(\/operators)?$/ }, (args) => ({ path: join(RXJS_ESM, args.path === 'rxjs' ? 'index.js' : 'operators/index.js') }));
  },
};

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });

rmSync(STAGING, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  entryPoints: ENTRY_POINTS,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: STAGING,
  chunkNames: 'chunks/[name]-[hash]',
  external: EXTERNAL,
  plugins: [rxjsAsModules],
  // Class and function names are what users read (`<DefaultSpider 'default'>`, `spider_exceptions/TextTooLargeError`):
  // esbuild would rename those it has to tell apart in one chunk.
  keepNames: true,
  // Shorter source to compile at every start: an empty `seine runspider` took 297 → 253 ms of CPU (perf stat, 4×5
  // alternated runs). Names users read are kept (keepNames), and stack traces map back to src/ through the source maps.
  minify: true,
  // Bundled CommonJS packages call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __seineCreateRequire } from 'node:module'; const require = __seineCreateRequire(import.meta.url);" },
  sourcemap: 'linked',
  logLevel: 'warning',
});

// The per-module JavaScript (and its maps) gives way to the bundle, and so do an earlier build's chunks;
// declarations stay for TypeScript users.
for (const file of filesUnder(DIST)) {
  if (file.endsWith('.js') || file.endsWith('.js.map')) rmSync(file);
}
for (const file of filesUnder(STAGING)) {
  const target = join(DIST, relative(STAGING, file));
  mkdirSync(dirname(target), { recursive: true });
  renameSync(file, target);
}
rmSync(STAGING, { recursive: true, force: true });

// The dashboard's page, script and style are served from files (src/dashboard/assets.ts), not bundled.
cpSync(join(ROOT, 'src', 'dashboard', 'assets'), join(DIST, 'dashboard', 'assets'), { recursive: true });
