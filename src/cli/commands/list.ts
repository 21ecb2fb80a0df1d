import { defineCommand } from '../command.js';
import { loadSpiders, requireProject } from '../../project/project.js';

/** `seine list`: the project's spider names, sorted, one a line. */
export const listCommand = defineCommand({
  name: 'list',
  description: 'List available spiders',
  defaultSettings: { LOG_ENABLED: false },
  builder: (parser) => parser,
  async handler({ cwd, stdout, project }) {
    const spiders = await loadSpiders(requireProject(project, cwd));
    for (const name of spiders.list()) stdout.write(`${name}\n`);
  },
});
