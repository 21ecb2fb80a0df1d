import { defineCommand } from '../command.js';
import { UsageError } from '../usage-error.js';
import { genSpider, templateList } from '../../project/gen-spider.js';
import { loadSpiders } from '../../project/project.js';

/**
 * `seine genspider [-t template] <name> <domain>`: inside a project, into its
 * NEWSPIDER_MODULE folder (refusing a name a spider already has); outside,
 * into the current folder.
 */
export const genspiderCommand = defineCommand<{ name?: string; domain?: string; template: string; list?: boolean }>({
  name: 'genspider',
  positionals: '[name] [domain]',
  description: 'Generate new spider using pre-defined templates',
  defaultSettings: { LOG_ENABLED: false },
  builder: (parser) =>
    parser
      .positional('name', { type: 'string', describe: 'the spider name' })
      .positional('domain', { type: 'string', describe: 'the domain (or a URL) to crawl' })
      .option('template', { alias: 't', type: 'string', default: 'basic', requiresArg: true, describe: 'the template to use (see --list)' })
      .option('list', { alias: 'l', type: 'boolean', describe: 'list available templates' }) as never,
  async handler({ args, cwd, stdout, project }) {
    if (args.list === true) {
      stdout.write(templateList());
      return;
    }
    if (args.name === undefined || args.domain === undefined) {
      throw new UsageError('genspider needs a spider name and a domain, e.g. seine genspider example example.com', { command: 'genspider' });
    }
    const context = project === null ? null : { project, spiders: await loadSpiders(project) };
    const { message } = genSpider({ name: String(args.name), domain: String(args.domain), template: args.template, cwd, project: context });
    stdout.write(message);
  },
});
