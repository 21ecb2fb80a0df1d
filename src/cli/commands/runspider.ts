import { loadSpiderFile, spiderName } from '../load-spider-module.js';
import { defineCommand } from '../command.js';
import { parseFeedOptions, parseSpiderArgs, runCrawl } from '../run-crawl.js';

/**
 * `seine runspider <file.ts>`: loads a TypeScript spider file with no build
 * step and crawls with it. First SIGINT/SIGTERM: graceful shutdown (in-flight
 * requests finish, feeds are closed); a second one forces.
 */
export const runspiderCommand = defineCommand<{ file: string; a?: string[]; o?: string[]; O?: string[] }>({
  name: 'runspider',
  positionals: '<file>',
  description: 'Run a self-contained spider (without creating a project)',
  builder: (parser) =>
    parser
      .positional('file', { type: 'string', describe: 'the spider file (.ts or .js)', demandOption: true })
      .option('a', { type: 'string', array: true, requiresArg: true, describe: 'set a spider argument (may be repeated)', nargs: 1 })
      .option('o', { type: 'string', array: true, requiresArg: true, describe: 'append scraped items to the end of FILE (use - for stdout)', nargs: 1 })
      .option('O', { type: 'string', array: true, requiresArg: true, describe: 'dump scraped items into FILE, overwriting it', nargs: 1 }) as never,
  async handler({ args, settings, logBus, cwd, logger }) {
    parseSpiderArgs(args.a ?? []); // a malformed -a fails before anything loads
    const feeds = parseFeedOptions(args); // likewise a bad -o/-O: one line, nothing crawled
    const [spiderClass] = await loadSpiderFile(args.file, cwd);
    logger.debug(`Running spider ${spiderName(spiderClass) ?? '?'} from ${args.file}`);
    await runCrawl({ spiderClass: spiderClass!, args, feeds, settings, logBus });
    return 0;
  },
});
