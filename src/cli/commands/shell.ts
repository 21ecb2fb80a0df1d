import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { defineCommand } from '../command.js';
import { cmdlineSettings } from '../run-crawl.js';
import { chooseSpider } from '../fetch-url.js';
import { ShellFetchError } from '../../shell/shell-errors.js';
import { looksLikeBareFileName, targetUrl } from '../../shell/target-url.js';
import { shellRequest } from '../../shell/shell-request.js';
import { UsageError } from '../usage-error.js';
import { explainWaitFailure, waitMeta, waitOption, withWaitOptions, type WaitForArgs } from '../wait-for.js';

/**
 * `seine shell [target]`: downloads the target (a URL, or a local file
 * written as a path) through a crawler that stays open, then opens a
 * console on it — Scrapy's `scrapy shell`. A target that cannot be fetched
 * ends the command with one line and no console.
 */
export const shellCommand = defineCommand<{ target?: string; spider?: string; redirect?: boolean; c?: string } & WaitForArgs>({
  name: 'shell',
  positionals: '[target]',
  description: 'Interactive scraping console',
  builder: (parser) =>
    withWaitOptions(parser
      .positional('target', { type: 'string', describe: 'a URL (quote it), or a local file as ./page.html, ../page.html, /abs/page.html or file:///abs/page.html' })
      .option('spider', { type: 'string', requiresArg: true, describe: 'use this spider of the project' })
      .option('c', { type: 'string', requiresArg: true, describe: 'evaluate CODE in the shell, print the result and exit (1 if it fails)' })
      // yargs reads `--no-redirect` as `redirect: false`; declared under both names so the help shows the one users type.
      .option('redirect', { type: 'boolean', hidden: true })
      .option('no-redirect', { type: 'boolean', describe: 'do not follow HTTP 3xx redirects of the target' })
      .option('browser', { type: 'boolean', describe: 'render the target in a browser (Chromium); fetch(url, { playwright: true }) does the same in the console' })) as never,
  async handler({ args, settings, logBus, cwd, env, project }) {
    // The console's compilers (esbuild, acorn) load only for the shell, not for every seine command.
    const [{ ShellCrawler }, { ShellSession, loadSeineModule }, { chooseConsole }, { historyFileFor, runConsole }] = await Promise.all([
      import('../../shell/shell-crawler.js'),
      import('../../shell/shell-session.js'),
      import('../../shell/console/choose-console.js'),
      import('../../shell/console/start-console.js'),
    ]);
    const url = args.target === undefined ? null : targetUrl(args.target, cwd);
    const wait = waitOption(args, 'shell');
    if (wait !== null && args.target === undefined) throw new UsageError('--wait-for waits in the target page: give the target too, e.g. seine shell URL --wait-for SELECTOR', { command: 'shell' });
    // An unknown console is a mistake to report before anything is downloaded.
    const kind = chooseConsole({ env: env['SEINE_SHELL'], config: project?.config.sections['settings']?.['shell'] });

    const { spiderClass, projectSettings } = await chooseSpider(url ?? '', args.spider, project, cwd);

    // Scrapy's shell: no periodic "Crawled N pages" lines in the middle of the console, and retries
    // without seine's backoff, since someone is waiting at the prompt (a bare `index.html` fails in
    // ~0.1 s instead of ~4 s). The project's settings and -s still win.
    const engine = new ShellCrawler({ spiderClass, settings: cmdlineSettings(settings), projectSettings: { LOGSTATS_INTERVAL: 0, RETRY_BACKOFF_BASE: 0, ...projectSettings }, logBus });
    const session = new ShellSession({
      crawler: engine.crawler,
      spider: engine.crawler.spider,
      shellCrawler: engine,
      cwd,
      env,
      write: (text) => process.stdout.write(text),
      seine: await loadSeineModule(),
    });
    try {
      await engine.open();
      if (args.target !== undefined) {
        try {
          const redirect = args.redirect !== false;
          // With --wait-for, a request that carries the wait; the session adds nothing to a Request that has its status meta.
          await (wait === null
            ? session.fetch(args.target, { redirect, ...(args.browser === true ? { playwright: true } : {}) })
            : session.fetch(shellRequest(args.target, { redirect, cwd, meta: waitMeta(wait) })));
        } catch (error) {
          if (!(error instanceof ShellFetchError)) throw error;
          const cause = (explainWaitFailure(error.cause, url!, wait) as Error | undefined)?.message ?? error.message;
          const hint = looksLikeBareFileName(args.target) || existsSync(resolve(cwd, args.target)) ? ` — to open a local file, write it as a path: ./${args.target}` : '';
          throw new ShellFetchError(`${cause}${hint}`, { cause: error });
        }
      }
      if (args.c !== undefined) {
        // Scrapy's `-c`: the code, evaluated as console input, its result printed (a string as it is).
        const { errors } = await runConsole({ kind, vars: session.vars, banner: null, input: Readable.from([`${args.c}\n`]), historyFile: null, plainStrings: true });
        return errors === 0 ? 0 : 1;
      }
      await runConsole({ kind, vars: session.vars, banner: session.help(), historyFile: historyFileFor(kind, env), pipedBannerOutput: process.stderr });
    } finally {
      await engine.close();
    }
    return 0;
  },
});
