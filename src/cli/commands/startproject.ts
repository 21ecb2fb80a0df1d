import { defineCommand } from '../command.js';
import { startProject } from '../../project/start-project.js';

/** `seine startproject <name> [dir]`: a new project from scaffold/project, offline. */
export const startprojectCommand = defineCommand<{ project_name: string; project_dir?: string; seine?: string }>({
  name: 'startproject',
  positionals: '<project_name> [project_dir]',
  description: 'Create new project',
  defaultSettings: { LOG_ENABLED: false },
  builder: (parser) =>
    parser
      .positional('project_name', { type: 'string', describe: 'the project (and its module folder) name', demandOption: true })
      .positional('project_dir', { type: 'string', describe: 'where to create it (default: a folder named like the project)' })
      .option('seine', {
        type: 'string',
        describe: "what the project's package.json depends on for seine: a path to a checkout or a .tgz, or an npm spec (default: the seine running this command)",
      }) as never,
  handler({ args, cwd, stdout }) {
    const { message } = startProject({ name: String(args.project_name), dir: args.project_dir, cwd, seine: args.seine });
    stdout.write(message);
  },
});
