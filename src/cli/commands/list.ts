import { defineCommand } from '../command.js';
import { loadSpiders, requireProject } from '../../project/project.js';
import { loadFailuresSummary, warnLoadFailures } from '../spider-load-failures.js';

/**
 * `seine list`: the project's spider names, sorted, one a line. A spider
 * file that could not be loaded is a WARNING; the others are listed, and the
 * exit status is 1.
 */
export const listCommand = defineCommand({
  name: 'list',
  description: 'List available spiders',
  defaultSettings: { LOG_ENABLED: false },
  builder: (parser) => parser,
  async handler({ cwd, stdout, stderr, project }) {
    const spiders = await loadSpiders(requireProject(project, cwd));
    warnLoadFailures(spiders.failures, stderr);
    for (const name of spiders.list()) stdout.write(`${name}\n`);
    const summary = loadFailuresSummary(spiders.failures, 'not listed');
    if (summary === null) return 0;
    stderr.write(summary);
    return 1;
  },
});
