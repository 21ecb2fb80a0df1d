import { SpiderArgumentError } from '../../spider/spider-errors.js';
import { CrawlerImpl } from '../../core/crawler-impl.js';
import { loadSpiderFile, spiderName } from '../load-spider-module.js';
import { defineCommand } from '../command.js';
import { priorityValue } from '../../settings/index.js';
import { parseFeedOption } from '../feed-option.js';

export function parseSpiderArgs(values: readonly string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new SpiderArgumentError(value, `Invalid -a value '${value}': write it as -a NAME=VALUE, e.g. -a tag=humor`);
    args[value.slice(0, eq)] = value.slice(eq + 1);
  }
  return args;
}

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
    const spiderArgs = parseSpiderArgs(args.a ?? []);
    // Parsed before the spider loads, so a bad -o/-O fails with one line and nothing crawled.
    const feeds = [...(args.o ?? []).map((value) => parseFeedOption(value, false)), ...(args.O ?? []).map((value) => parseFeedOption(value, true))];
    const [spiderClass] = await loadSpiderFile(args.file, cwd);
    const cmdline: Record<string, unknown> = {};
    for (const name of settings.names()) {
      if ((settings.getPriority(name) ?? 0) >= priorityValue('cmdline')) cmdline[name] = settings.getRaw(name);
    }
    const crawler = new CrawlerImpl(spiderClass!, { args: spiderArgs, settings: cmdline, feeds }, logBus);
    logger.debug(`Running spider ${spiderName(spiderClass) ?? '?'} from ${args.file}`);
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals): void => {
      signals++;
      const log = logBus.getLogger('seine.crawler');
      if (signals === 1) {
        log.info(`Received ${signal}, shutting down gracefully. Send again to force`);
        crawler.close('shutdown');
      } else {
        log.info(`Received ${signal} twice, forcing unclean shutdown`);
        crawler.cancel('shutdown');
        process.exit(1);
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      await crawler.run();
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    return 0;
  },
});
