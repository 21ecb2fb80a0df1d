import { defineCommand } from '../command.js';
import { UsageError } from '../usage-error.js';
import { untilInterrupted } from '../until-interrupted.js';

interface ServeArgs {
  bind?: string;
  port?: string;
  dir?: string;
}

/**
 * `seine serve`: scrapyd's JSON API, the job queue and the pages, from the
 * folder given by --dir (its seine.cfg's [serve] section, jobs.json, logs/,
 * items/, projects/), until Ctrl-C.
 */
export const serveCommand = defineCommand<ServeArgs>({
  name: 'serve',
  description: "Run crawls as a service with scrapyd's JSON API",
  builder: (parser) =>
    parser
      .option('bind', { type: 'string', requiresArg: true, describe: "the address to listen on (default: [serve] bind_address, 127.0.0.1); another than loopback needs [serve] username and password" })
      .option('port', { type: 'string', requiresArg: true, describe: 'the port to listen on (default: [serve] http_port, 6800; 0: a free one)' })
      .option('dir', { type: 'string', requiresArg: true, describe: "the service's folder: seine.cfg, jobs, logs, items, deployed versions (default: .seine-serve)" }) as never,
  async handler({ args, cwd, logger }) {
    let port: number | undefined;
    if (args.port !== undefined) {
      if (!/^\d{1,5}$/.test(args.port) || Number(args.port) > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535, got '${args.port}'`, { command: 'serve' });
      port = Number(args.port);
    }
    const { resolve } = await import('node:path');
    const { startService } = await import('../../serve/run-service.js');
    const service = await startService({ dir: resolve(cwd, args.dir ?? '.seine-serve'), bind: args.bind, port });
    const { address, port: bound } = service.address;
    const host = address.includes(':') ? `[${address}]` : address;
    const auth = service.config.username !== '' && service.config.password !== '' ? ' (basic auth on)' : '';
    logger.info(`seine serve: listening on http://${host}:${bound}/${auth}, folder ${service.config.dir}, max_proc ${service.config.max_proc}`);
    // What scrapyd's log says of its jobs: each one's state changes, one line each.
    service.book.onChange((job) => {
      const what = job.state === 'running' ? `started (pid ${job.pid ?? '?'})` : job.state === 'finished' ? `finished (${job.finish_reason ?? 'no finish reason'})` : 'scheduled';
      logger.info(`Job ${what}: project=${job.project} spider=${job.spider} job=${job.id}`);
    });
    const signal = await untilInterrupted();
    logger.info(`seine serve: ${signal}, stopping (running crawls go on; a restart adopts them)`);
    await service.stop();
  },
});
