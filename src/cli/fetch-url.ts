/**
 * What `seine fetch` and `seine view` share, as Scrapy's view command is its
 * fetch command with another output: the options, the spider that handles
 * the URL, and the one-request crawl.
 */
import type { Argv } from 'yargs';
import { loadSpider, loadSpiders, requireProject, type Project } from '../project/project.js';
import { fetchOnce, type Fetched } from '../shell/fetch-once.js';
import { shellRequest } from '../shell/shell-request.js';
import { spiderClassForUrl } from '../shell/spider-for-url.js';
import { DefaultSpider } from '../shell/default-spider.js';
import { spiderName, type SpiderClass } from '../contracts/spider.js';
import type { CommandContext } from './command.js';
import { cmdlineSettings } from './run-crawl.js';
import { fullUrlArgument } from './url-argument.js';
import { explainWaitFailure, waitMeta, waitOption, withWaitOptions, type WaitForArgs } from './wait-for.js';

export interface FetchUrlArgs extends WaitForArgs {
  url: string;
  spider?: string;
  /** false after `--no-redirect`. */
  redirect?: boolean;
  /** `--browser`: render the page in Chromium. */
  browser?: boolean;
}

export function withFetchOptions<T>(parser: Argv<T>): Argv<T & FetchUrlArgs> {
  const withBrowser = parser
    .positional('url', { type: 'string', describe: 'the full URL to fetch (http://, https:// or file://)', demandOption: true })
    .option('spider', { type: 'string', requiresArg: true, describe: "use this spider of the project (default: the one whose allowedDomains cover the URL)" })
    // yargs reads `--no-redirect` as `redirect: false`; the option is declared under both names so
    // that the help shows the one users type.
    .option('redirect', { type: 'boolean', hidden: true })
    .option('no-redirect', { type: 'boolean', describe: 'do not follow 3xx redirects: use the redirect response as it is' })
    .option('browser', { type: 'boolean', describe: 'render the page in a browser (Chromium), as meta.playwright does' });
  return withWaitOptions(withBrowser) as unknown as Argv<T & FetchUrlArgs>;
}

export interface SpiderChoice {
  readonly spiderClass: SpiderClass;
  readonly projectSettings: Record<string, unknown>;
}

/** `--spider NAME` from the project, else the project's spider for the URL, else the default spider (also used by `seine shell`). */
export async function chooseSpider(url: string, name: string | undefined, opened: Project | null, cwd: string): Promise<SpiderChoice> {
  if (name !== undefined) {
    const project = requireProject(opened, cwd);
    return { spiderClass: (await loadSpider(project, name)).spiderClass, projectSettings: { ...project.settings } };
  }
  const project = opened;
  if (project === null) return { spiderClass: DefaultSpider, projectSettings: {} };
  return { spiderClass: spiderClassForUrl(await loadSpiders(project), url), projectSettings: { ...project.settings } };
}

/** Downloads the command's URL through a crawl of the chosen spider; a failure throws its one-line error. */
export async function fetchUrl(context: CommandContext<FetchUrlArgs>, command: string): Promise<Fetched> {
  const { args, cwd, settings, logBus, logger, project } = context;
  const url = fullUrlArgument(args.url, command, cwd);
  const wait = waitOption(args, command);
  const { spiderClass, projectSettings } = await chooseSpider(url, args.spider, project, cwd);
  logger.debug(`Fetching ${url} with the spider '${spiderName(spiderClass) ?? 'default'}'`);
  const request = shellRequest(url, { redirect: args.redirect !== false, cwd, ...(args.browser === true ? { browser: true } : {}), ...(wait === null ? {} : { meta: waitMeta(wait) }) });
  try {
    return await fetchOnce(request, { spiderClass, settings: cmdlineSettings(settings), projectSettings, logBus });
  } catch (error) {
    throw explainWaitFailure(error, url, wait);
  }
}
