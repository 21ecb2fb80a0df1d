/**
 * How `seine list` and `seine check` report spider files that could not be
 * loaded (docs/projects.md, "A spider file that does not load"): a WARNING
 * line for each before their output, their other spiders listed or checked
 * as usual, then one closing line and exit status 1. Their log is off by
 * default, so the lines go to stderr themselves; `seine crawl` logs the
 * same WARNING (project.ts's loadSpider).
 */
import type { TextWriter } from '../log/sink.js';
import type { LoadFailure } from '../project/spider-loader.js';

export function warnLoadFailures(failures: readonly LoadFailure[], stderr: TextWriter): void {
  for (const failure of failures) stderr.write(`WARNING: ${failure.error.message}\n`);
}

/** The closing line when some file failed (exit status 1), or null when every file loaded. */
export function loadFailuresSummary(failures: readonly LoadFailure[], leftOut: string): string | null {
  if (failures.length === 0) return null;
  const files = failures.map((failure) => failure.file).join(', ');
  const [count, its] = failures.length === 1 ? ['1 spider file', 'its'] : [`${failures.length} spider files`, 'their'];
  return `seine: ${count} could not be loaded (${files}): ${its} spiders were ${leftOut}; fix the error in ${its} WARNING above\n`;
}
