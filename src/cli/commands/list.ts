import { defineCommand } from '../command.js';
import { loadSpiders, requireProject } from '../../project/project.js';

/** `seine list`: the project's spider names, sorted, one a line. */
export const listCommand = defineCommand({
  name: 'list',
  description: 'List available spiders',
  defaultSettings: { LOG_ENABLED: false },
  builder: (parser) => parser,
  async handler({ cwd, stdout }) {
    const spiders = await loadSpiders(await requireProject(cwd));
    for (const name of spiders.list()) stdout.write(`${name}\n`);
  },
});
