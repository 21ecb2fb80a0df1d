#!/usr/bin/env node
// The `seine` command. The CLI itself is TypeScript compiled to dist/ by
// `npm run build` (run on install by `prepare`); this file only starts it.
let main;
try {
  main = await import('../dist/cli/main.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/main.js')) {
    process.stderr.write("seine: the CLI is not built (dist/cli/main.js is missing) — run 'npm run build' in seine's folder\n");
    process.exit(1);
  }
  throw error;
}
process.exitCode = await main.runCli(process.argv.slice(2));
