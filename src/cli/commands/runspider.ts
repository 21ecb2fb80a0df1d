import { loadSpiderFile, spiderName } from '../../project/load-module.js';
import { defineCommand } from '../command.js';
import { crawlExitStatus, parseFeedOptions, parseSpiderArgs, runCrawl, withCrawlOptions } from '../run-crawl.js';
import { applyWorkersOption, withWorkersOption, type WorkersOptionArgs } from '../workers-option.js';
import { applyDashboardOption, withDashboardOption } from '../dashboard-option.js';

/**
 * `seine runspider <file.ts>`: loads a TypeScript spider file with no build
 * step and crawls with it. First SIGINT/SIGTERM: graceful shutdown (in-flight
 * requests finish, feeds are closed); a second one forces.
 */
export const runspiderCommand = defineCommand<{ file: string; a?: string[]; o?: string[]; O?: string[]; dashboard?: string } & WorkersOptionArgs>({
  name: 'runspider',
  positionals: '<file>',
  description: 'Run a self-contained spider (without creating a project)',
  builder: (parser) =>
    withWorkersOption(withDashboardOption(withCrawlOptions(parser
      .positional('file', { type: 'string', describe: 'the spider file (.ts or .js)', demandOption: true })))) as never,
  async handler({ args, settings, logBus, cwd, logger, reconfigureLog }) {
    parseSpiderArgs(args.a ?? []); // a malformed -a fails before anything loads
    applyDashboardOption(args, settings, 'runspider');
    applyWorkersOption(args, settings);
    const feeds = parseFeedOptions(args); // formats are checked at the crawl's start, once customSettings are known
    const [spiderClass] = await loadSpiderFile(args.file, cwd);
    logger.debug(`Running spider ${spiderName(spiderClass) ?? '?'} from ${args.file}`);
    return crawlExitStatus(await runCrawl({ spiderClass: spiderClass!, args, feeds, settings, logBus, reconfigureLog, spiderFile: args.file }));
  },
});
