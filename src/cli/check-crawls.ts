/**
 * The crawls behind `seine check`, as Scrapy's check command runs them: for
 * each spider with tested callbacks, one crawl whose start requests are the
 * contracts' requests (one per callback, dontFilter). Each request's
 * callback is a wrapper that runs the contracts' pre-hooks, the spider's
 * callback, then the post-hooks on everything it produced, and reports each
 * to the ContractReport; nothing the callback produces is followed or
 * exported. The spiders are checked at the same time.
 */
import { sep } from 'node:path';
import { callbackOutputs } from '../contracts/callback-output.js';
import { Request, type Callback, type Errback } from '../http/request.js';
import type { Response } from '../http/response.js';
import { crawlerStartingWith } from '../shell/fetch-once.js';
import type { Spider, SpiderClass } from '../contracts/spider.js';
import type { LogBus } from '../log/log-bus.js';
import {
  ContractError, isContractFailure, type Contract, type ContractClass, type ContractRequestArgs, type ContractRequestClass,
} from '../check-contracts/contract.js';
import type { ContractReport } from '../check-contracts/contract-report.js';
import type { TestedMethod } from '../check-contracts/tested-methods.js';

export interface CheckedSpider {
  readonly spiderClass: SpiderClass;
  readonly methods: readonly TestedMethod[];
}

export interface CheckOptions {
  readonly spiders: readonly CheckedSpider[];
  /** Contract classes by the `@name` they answer to. */
  readonly contracts: ReadonlyMap<string, ContractClass>;
  readonly report: ContractReport;
  /** The project's folder: an error's stack frames in its files are shown. */
  readonly projectRoot: string;
  readonly settings: Record<string, unknown>;
  readonly projectSettings: Record<string, unknown>;
  readonly logBus: LogBus;
}

/** Why a contract failed or errored, as the report shows it: one line, then the project's own stack frames for an error in its code. */
export function problemText(error: unknown, projectRoot: string, withFrames: boolean): string {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) return String(error);
  const { name, message, stack, response } = error as Error & { response?: { status?: unknown; url?: unknown } };
  let line = `${name}: ${message}`;
  if (typeof response?.status === 'number') line += ` (${response.status} ${String(response.url)})`;
  if (!withFrames || typeof stack !== 'string') return line;
  const root = projectRoot.endsWith(sep) ? projectRoot : projectRoot + sep;
  const frames = stack
    .split('\n')
    .filter((frame) => /^\s+at /.test(frame) && frame.includes(root) && !frame.includes(`${sep}node_modules${sep}`))
    .map((frame) => `  ${frame.trim().replace(/file:\/\//g, '').replaceAll(root, '')}`);
  return [line, ...frames].join('\n');
}

/** Every known `@name`, for the unknown-contract message. */
function knownNames(contracts: ReadonlyMap<string, ContractClass>): string {
  return [...contracts.keys()].map((name) => `@${name}`).join(', ');
}

interface PreparedRequest {
  readonly request: Request;
  readonly answered: () => boolean;
}

/** The callback's contracts, each with the `@name` it was written with. */
function contractsFor(method: TestedMethod, contracts: ReadonlyMap<string, ContractClass>): Array<{ name: string; contract: Contract }> {
  return method.lines.map((line) => {
    const cls = contracts.get(line.name);
    if (cls === undefined) {
      throw new ContractError(`Unknown contract @${line.name} in ${method.name}'s doc comment: the contracts are ${knownNames(contracts)}; add your own to SPIDER_CONTRACTS`);
    }
    return { name: line.name, contract: new cls(method.name, line.args) };
  });
}

/** The request that checks one callback, or null when its contracts cannot be set up (reported as a `contract` error). */
function prepare(spider: Spider, method: TestedMethod, options: CheckOptions): PreparedRequest | null {
  const { report } = options;
  const test = (what: string): string => `[${spider.name}] ${method.name} (${what})`;
  let answered = false;
  try {
    const contracts = contractsFor(method, options.contracts);
    const callback = (spider as unknown as Record<string, unknown>)[method.name];
    if (typeof callback !== 'function') throw new ContractError(`${method.name} is not a method of the spider, so it cannot be checked`);
    let requestClass: ContractRequestClass = Request;
    for (const { contract } of contracts) requestClass = (contract.constructor as ContractClass).requestClass ?? requestClass;

    // Runs the hooks around the spider's callback; unittest's order: pre-hooks, callback, post-hooks, each in the comment's order.
    const run = async (hook: 'pre' | 'post', { name: contractName, contract }: { name: string; contract: Contract }, value: unknown): Promise<void> => {
      const name = `@${contractName} ${hook}-hook`;
      report.start(test(name));
      try {
        if (hook === 'pre') await contract.preProcess!(value as Response);
        else await contract.postProcess!(value as unknown[]);
        report.success(test(name));
      } catch (error) {
        if (isContractFailure(error)) report.failure(test(name), problemText(error, options.projectRoot, false));
        else report.error(test(name), problemText(error, options.projectRoot, true));
      }
    };
    const checked: Callback = async function* (response: Response, kwargs: Record<string, unknown>) {
      answered = true;
      for (const entry of contracts) if (entry.contract.preProcess !== undefined) await run('pre', entry, response);
      const output: unknown[] = [];
      try {
        for await (const value of callbackOutputs((callback as Callback).call(spider, response, kwargs))) output.push(value);
      } catch (error) {
        report.error(test('callback'), problemText(error, options.projectRoot, true));
        return;
      }
      for (const entry of contracts) if (entry.contract.postProcess !== undefined) await run('post', entry, output);
    };
    const failed: Errback = (error: Error) => {
      answered = true;
      report.error(test('errback'), problemText(error, options.projectRoot, false));
    };

    let args: ContractRequestArgs = { callback: callback as Callback, dontFilter: true };
    for (const { contract } of contracts) args = contract.adjustRequestArgs(args);
    const { url, ...requestOptions } = args;
    if (url === undefined || url === '') {
      throw new ContractError(`${method.name}'s doc comment has no @url line: add the page to check it against, e.g. @url https://quotes.toscrape.com/`);
    }
    const request = new requestClass(url, { ...requestOptions, callback: checked, errback: failed });
    return { request, answered: () => answered };
  } catch (error) {
    report.error(test('contract'), problemText(error, options.projectRoot, !(error instanceof ContractError)));
    return null;
  }
}

/** Checks every spider's tested callbacks; the results are in the report. */
export async function runContractChecks(options: CheckOptions): Promise<void> {
  await Promise.all(options.spiders.map(async ({ spiderClass, methods }) => {
    if (methods.length === 0) return;
    let prepared: Array<PreparedRequest & { method: string }> = [];
    let spiderName = '';
    const crawler = crawlerStartingWith((spider) => {
      spiderName = spider.name;
      prepared = methods.flatMap((method) => {
        const one = prepare(spider, method, options);
        return one === null ? [] : [{ ...one, method: method.name }];
      });
      return prepared.map(({ request }) => request);
    }, { spiderClass, settings: options.settings, projectSettings: options.projectSettings, logBus: options.logBus });
    await crawler.run();
    // Dropped before the callback or errback (robots.txt, a middleware, the offsite filter): say so rather than pass silently.
    for (const { method, answered, request } of prepared) {
      if (!answered()) {
        options.report.error(
          `[${spiderName}] ${method} (callback)`,
          `No response reached the callback for ${request.url}: the request was dropped (robots.txt, allowedDomains or a middleware); run seine parse ${request.url} --spider ${spiderName} -c ${method} to see why`,
        );
      }
    }
  }));
}

