/**
 * `--wait-for SELECTOR` and `--wait-timeout SECONDS` of the commands that
 * render a page (fetch, view, shell, parse): wait for content a script adds
 * after the page has loaded, before its HTML is read — scrapy-playwright's
 * `PageMethod('wait_for_selector', …)` as an option. Waiting needs a
 * rendered page, so `--wait-for` implies `--browser`; with `--no-browser`
 * it is a usage error, as is `--wait-timeout` without `--wait-for`.
 */
import type { Argv } from 'yargs';
import { PageMethod } from '../browser/page-method.js';
import { SeineError } from '../errors/seine-error.js';
import { UsageError } from './usage-error.js';

/** Playwright's own default for a wait: long enough for a slow page, short enough that a wrong selector does not hang the command. */
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 30;

export interface WaitForArgs {
  /** false after `--no-browser`. */
  browser?: boolean;
  'wait-for'?: string;
  'wait-timeout'?: string;
}

export function withWaitOptions<T>(parser: Argv<T>): Argv<T & WaitForArgs> {
  return parser
    .option('wait-for', {
      type: 'string',
      requiresArg: true,
      describe: 'render the page in Chromium (implies --browser) and wait until an element matching this CSS selector (or XPath starting with //) is in it before reading it',
    })
    // A string, so that a wrong value is quoted as typed.
    .option('wait-timeout', {
      type: 'string',
      requiresArg: true,
      describe: `seconds --wait-for waits before giving up (default: ${DEFAULT_WAIT_TIMEOUT_SECONDS})`,
    }) as unknown as Argv<T & WaitForArgs>;
}

/** What to wait for, once the options are checked. */
export interface Wait {
  readonly selector: string;
  readonly seconds: number;
}

/** The checked options, or null without --wait-for. */
export function waitOption(args: WaitForArgs, command: string): Wait | null {
  const selector = args['wait-for'];
  const timeout = args['wait-timeout'];
  if (selector === undefined) {
    if (timeout !== undefined) throw new UsageError('--wait-timeout says how long --wait-for waits: give --wait-for SELECTOR too', { command });
    return null;
  }
  if (selector.trim() === '') throw new UsageError("--wait-for needs a selector, e.g. --wait-for 'div.quote'", { command });
  if (args.browser === false) throw new UsageError('--wait-for waits in a page rendered by the browser: drop --no-browser (--wait-for renders the page by itself)', { command });
  const seconds = timeout === undefined ? DEFAULT_WAIT_TIMEOUT_SECONDS : Number(timeout);
  if (timeout !== undefined && (!/^\s*\d*\.?\d+\s*$/.test(timeout) || !(seconds > 0))) {
    throw new UsageError(`--wait-timeout must be a number of seconds above 0, e.g. --wait-timeout 10, got '${timeout}'`, { command });
  }
  return { selector, seconds };
}

/**
 * The request meta of a wait: rendered, and the selector waited for once the
 * page has loaded. `attached`, not Playwright's default `visible`: seine reads
 * the HTML, in which a hidden element is as present as a shown one.
 */
export function waitMeta(wait: Wait): Record<string, unknown> {
  return {
    playwright: true,
    playwright_page_methods: [new PageMethod('waitForSelector', wait.selector, { state: 'attached', timeout: Math.round(wait.seconds * 1000) })],
  };
}

/** --wait-for's selector did not appear in the rendered page within --wait-timeout. */
export class WaitForTimeoutError extends SeineError {
  static readonly code = 'SEINE_WAIT_FOR_TIMEOUT';
  constructor(url: string, wait: Wait, options?: { cause?: unknown }) {
    super(
      WaitForTimeoutError.code,
      `No element matched '${wait.selector}' on ${url} after waiting ${wait.seconds} s: check the selector against the page (seine shell --browser ${url}), or wait longer with --wait-timeout SECONDS`,
      options,
    );
  }
}

/** A failed wait (the page method's timeout) as WaitForTimeoutError; any other error as it was. */
export function explainWaitFailure(error: unknown, url: string, wait: Wait | null): unknown {
  if (wait === null) return error;
  const failed = error as { code?: unknown; cause?: { name?: unknown } } | null;
  if (failed?.code === 'SEINE_PAGE_METHOD' && failed.cause?.name === 'TimeoutError') return new WaitForTimeoutError(url, wait, { cause: error });
  return error;
}
