import { defineCommand } from '../command.js';
import { crawlExitStatus, parseFeedOptions, runCrawl, withCrawlOptions, type CrawlOptionArgs } from '../run-crawl.js';
import { loadSpider, requireProject } from '../../project/project.js';
import { resolveCustomSettings } from '../../project/project-settings.js';
import { applyWorkersOption, withWorkersOption, type WorkersOptionArgs } from '../workers-option.js';
import { applyDashboardOption, withDashboardOption, type DashboardOptionArgs } from '../dashboard-option.js';

/**
 * `seine crawl <spider>`: runs one of the project's spiders, from any folder
 * inside the project, with the project's settings.ts under the spider's
 * customSettings and the command line.
 */
export const crawlCommand = defineCommand<CrawlOptionArgs & DashboardOptionArgs & WorkersOptionArgs & { spider: string }>({
  name: 'crawl',
  positionals: '<spider>',
  description: 'Run a spider',
  builder: (parser) =>
    withWorkersOption(withDashboardOption(withCrawlOptions(parser
      .positional('spider', { type: 'string', describe: 'the name of a spider of the project (see seine list)', demandOption: true })))) as never,
  async handler({ args, settings, logBus, cwd, logger, project: opened, reconfigureLog }) {
    const feeds = parseFeedOptions(args);
    applyDashboardOption(args, settings, 'crawl');
    applyWorkersOption(args, settings);
    const project = requireProject(opened, cwd);
    const found = await loadSpider(project, String(args.spider), logBus);
    logger.debug(`Running spider ${found.name} from ${found.file}`);
    const own = found.spiderClass.customSettings;
    const customSettings = own === undefined ? undefined : await resolveCustomSettings(project.config, own);
    const crawler = await runCrawl({ spiderClass: found.spiderClass, args, feeds, settings, projectSettings: { ...project.settings }, customSettings, logBus, reconfigureLog, spiderFile: found.file });
    return crawlExitStatus(crawler);
  },
});
