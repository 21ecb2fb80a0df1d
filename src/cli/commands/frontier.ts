import { FrontierBusyError, FrontierClient, RedisUnreachableError, formatFrontierReport, frontierReport, frontierSettings } from '../../frontier/index.js';
import { defineCommand } from '../command.js';

const ACTIONS = ['status', 'pause', 'resume', 'clear'] as const;
type Action = (typeof ACTIONS)[number];

/** "1 live worker takes", "3 live workers take". */
const workers = (alive: number): string => (alive === 1 ? '1 live worker takes' : `${alive} live workers take`);

interface FrontierArgs {
  spider: string;
  action: Action;
  json?: boolean;
  force?: boolean;
}

/**
 * `seine frontier <spider> status|pause|resume|clear`: looks at and steers a
 * crawl shared through Redis (SCHEDULER=redis) from any machine that reaches
 * REDIS_URL, whether workers run or not. The spider is named, not loaded:
 * the command works outside the project too.
 */
export const frontierCommand = defineCommand<FrontierArgs>({
  name: 'frontier',
  positionals: '<spider> <action>',
  description: 'Show, pause, resume or clear a crawl shared through Redis',
  // A command someone types to look: a down Redis is reported after 3 s, not the crawl's 10 s (REDIS_CONNECT_TIMEOUT overrides it).
  defaultSettings: { LOG_ENABLED: false, REDIS_CONNECT_TIMEOUT: 3 },
  builder: (parser) =>
    parser
      .positional('spider', { type: 'string', describe: 'the name of the spider whose crawl is shared', demandOption: true })
      .positional('action', { type: 'string', choices: ACTIONS, describe: 'status, pause, resume or clear', demandOption: true })
      .option('json', { type: 'boolean', describe: 'status: print the report as JSON' })
      .option('force', { type: 'boolean', describe: 'clear: even while workers are alive' }) as never,
  async handler({ args, settings, stdout }) {
    const spider = String(args.spider);
    const frontier = frontierSettings(settings, spider);
    const client = new FrontierClient(frontier.url, frontier.keyPrefix);
    try {
      await client.connect(frontier.connectTimeoutMs);
    } catch (error) {
      throw new RedisUnreachableError(frontier.safeUrl, (error as Error).message, { cause: error });
    }
    try {
      const status = await client.status(frontier.leaseMs);
      const action: Action = args.action;
      if (action === 'status') {
        const report = frontierReport(spider, frontier.safeUrl, frontier.keyPrefix, status);
        stdout.write(args.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatFrontierReport(report));
      } else if (action === 'pause' || action === 'resume') {
        await client.setPaused(action === 'pause');
        const alive = status.workersAlive.length;
        stdout.write(
          action === 'pause'
            ? `Paused the crawl ${spider}: ${workers(alive)} no new request and ${alive === 1 ? 'waits' : 'wait'} (requests in flight finish); \`seine frontier ${spider} resume\` goes on\n`
            : `Resumed the crawl ${spider}: ${workers(alive)} requests again\n`,
        );
      } else {
        if (status.workersAlive.length > 0 && args.force !== true) throw new FrontierBusyError(spider, status.workersAlive);
        const deleted = await client.clear();
        stdout.write(`Cleared the crawl ${spider}: deleted ${deleted} key${deleted === 1 ? '' : 's'} (${frontier.keyPrefix}*) at ${frontier.safeUrl}\n`);
      }
    } finally {
      await client.quit();
    }
  },
});
