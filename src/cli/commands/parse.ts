import { loadSpider, loadSpiders, requireProject } from '../../project/project.js';
import { DefaultSpider } from '../../shell/default-spider.js';
import { spiderClassForUrl } from '../../shell/spider-for-url.js';
import { defineCommand } from '../command.js';
import { NoSpiderForUrlError } from '../parse-errors.js';
import { parseLevels } from '../parse-levels.js';
import { formatParseResults } from '../parse-output.js';
import { cmdlineSettings, parseFeedOptions, parseSpiderArgs, withCrawlOptions, type CrawlOptionArgs } from '../run-crawl.js';
import { fullUrlArgument } from '../url-argument.js';
import { UsageError } from '../usage-error.js';
import { explainWaitFailure, waitMeta, waitOption, withWaitOptions, type WaitForArgs } from '../wait-for.js';

interface ParseArgs extends CrawlOptionArgs, WaitForArgs {
  url: string;
  spider?: string;
  pipelines?: boolean;
  nolinks?: boolean;
  noitems?: boolean;
  nocolour?: boolean;
  rules?: boolean;
  callback?: string;
  meta?: string;
  cbkwargs?: string;
  depth?: string;
  verbose?: boolean;
}

/** -m and --cbkwargs: a JSON object, as Scrapy merges them into the request's meta and cb_kwargs. */
function jsonObjectOption(value: string | undefined, option: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`Invalid ${option} value '${value}': give a JSON object, e.g. ${option.split('/').pop()!}='{"foo": "bar"}'`, { command: 'parse' });
  }
  return parsed as Record<string, unknown>;
}

/** --depth: read as text so that a wrong value is quoted as typed. */
function parseDepth(value: string | undefined): number {
  if (value === undefined) return 1;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new UsageError(`--depth must be a whole number of 1 or more, got '${value}'`, { command: 'parse' });
  }
  return Number(value);
}

/**
 * `seine parse <url>`: downloads the URL and runs it through a callback of
 * the project's spider for it, then prints the items and requests the
 * callback produced; with --depth N it follows those requests (with their
 * own callbacks) level by level, N levels deep. For checking a spider's
 * callbacks against a live page.
 */
export const parseCommand = defineCommand<ParseArgs>({
  name: 'parse',
  positionals: '<url>',
  description: 'Parse URL (using its spider) and print the results',
  builder: (parser) =>
    withCrawlOptions(withWaitOptions(parser
      .positional('url', { type: 'string', describe: 'the full URL to parse (http://, https:// or file://)', demandOption: true })
      .option('spider', { type: 'string', requiresArg: true, describe: 'use this spider without looking for one' })
      .option('callback', { alias: 'c', type: 'string', requiresArg: true, describe: 'use this spider method as the callback (default: parse)' })
      .option('rules', { alias: 'r', type: 'boolean', describe: "use the callback of the CrawlSpider rule that matches the URL" })
      .option('depth', { alias: 'd', type: 'string', requiresArg: true, describe: 'how many levels to parse: 1 the URL only, 2 also the requests its callback makes, … (default: 1)' })
      .option('meta', { alias: 'm', type: 'string', requiresArg: true, describe: "extra meta for the request, as a JSON object: -m '{\"foo\": \"bar\"}'" })
      .option('cbkwargs', { type: 'string', requiresArg: true, describe: "extra callback keyword arguments, as a JSON object" })
      .option('pipelines', { type: 'boolean', describe: 'also process the items through the item pipelines' })
      .option('noitems', { type: 'boolean', describe: "don't show scraped items" })
      .option('nolinks', { type: 'boolean', describe: "don't show the requests to follow (extracted links)" })
      .option('nocolour', { type: 'boolean', describe: 'print without colours' })
      .option('verbose', { alias: 'v', type: 'boolean', describe: 'print each depth level one by one' })
      .option('browser', { type: 'boolean', describe: "render the URL's page in a browser (Chromium), as meta.playwright does" }))) as never,
  async handler({ args, settings, logBus, cwd, stdout, project: opened }) {
    const url = fullUrlArgument(args.url, 'parse', cwd);
    const depth = parseDepth(args.depth);
    const wait = waitOption(args, 'parse');
    const meta = { ...jsonObjectOption(args.meta, '-m/--meta'), ...(args.browser === true ? { playwright: true } : {}), ...(wait === null ? {} : waitMeta(wait)) };
    const cbKwargs = jsonObjectOption(args.cbkwargs, '--cbkwargs');
    const feeds = parseFeedOptions(args);
    const spiderArgs = parseSpiderArgs(args.a ?? []);
    const project = requireProject(opened, cwd);
    let spiderClass;
    if (args.spider !== undefined) {
      spiderClass = (await loadSpider(project, args.spider)).spiderClass;
    } else {
      spiderClass = spiderClassForUrl(await loadSpiders(project), url);
      if (spiderClass === DefaultSpider) throw new NoSpiderForUrlError(url);
    }
    const results = await parseLevels({
      url, depth, meta, cbKwargs, rules: args.rules === true,
      ...(args.callback === undefined ? {} : { callback: args.callback }),
      passItems: feeds.length > 0 || args.pipelines === true,
      spiderClass, spiderArgs, feeds,
      settings: cmdlineSettings(settings), projectSettings: { ...project.settings }, logBus,
    }).catch((error: unknown) => {
      throw explainWaitFailure(error, url, wait);
    });
    const colors = (stdout as { isTTY?: boolean }).isTTY === true && args.nocolour !== true;
    stdout.write(formatParseResults(results, { verbose: args.verbose === true, noItems: args.noitems === true, noLinks: args.nolinks === true, colors }));
    return 0;
  },
});
