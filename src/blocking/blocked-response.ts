import type { Crawler } from '../contracts/crawler.js';
import type { Response } from '../http/response.js';
import { SettingsError } from '../settings/settings-error.js';

/** The optional spider hook: `true` when a response is a block page (a captcha, a "come back later"). */
export interface BlockAwareSpider {
  isBlocked?(response: Response): boolean | Promise<boolean>;
}

/**
 * What makes a response "blocked", for the session pool (retire the session,
 * retry elsewhere) and the proxy pool (rest the proxy, escalate the tier):
 * a status in SESSIONS_BLOCKED_STATUS, a page that matches the CSS selector
 * SESSIONS_BLOCKED_SELECTOR, or `true` from the spider's `isBlocked(response)`.
 * One rule per crawl, so both pools agree on every response; the verdict is
 * computed once per response (the selector parses the page) and shared.
 */
export class BlockedResponseRule {
  readonly statuses: ReadonlySet<number>;
  readonly selector: string | null;
  readonly #spider: BlockAwareSpider;
  readonly #verdicts = new WeakMap<Response, Promise<string | null>>();
  readonly #onHookError: ((error: unknown, response: Response) => void) | null;

  constructor(options: { statuses: Iterable<number>; selector: string | null; spider: BlockAwareSpider; onHookError?: (error: unknown, response: Response) => void }) {
    this.statuses = new Set(options.statuses);
    this.selector = options.selector === '' ? null : options.selector;
    this.#spider = options.spider;
    this.#onHookError = options.onHookError ?? null;
  }

  /** The crawl's one rule (built on first use from SESSIONS_BLOCKED_STATUS and SESSIONS_BLOCKED_SELECTOR). */
  static of(crawler: Pick<Crawler, 'settings' | 'spider'>): BlockedResponseRule {
    let rule = rules.get(crawler);
    if (rule === undefined) {
      const { settings } = crawler;
      const statuses = settings.get('SESSIONS_BLOCKED_STATUS').map((value) => {
        const status = Number(value);
        if (!Number.isInteger(status) || status < 100 || status > 599) {
          throw new SettingsError(`Setting SESSIONS_BLOCKED_STATUS must list HTTP statuses (100–599), got ${JSON.stringify(value)}`);
        }
        return status;
      });
      const selector = settings.get('SESSIONS_BLOCKED_SELECTOR');
      if (selector !== null && selector !== undefined && typeof selector !== 'string') {
        throw new SettingsError(`Setting SESSIONS_BLOCKED_SELECTOR must be a CSS selector string or null, got ${JSON.stringify(selector)}`);
      }
      const { logBus, stats } = crawler as Partial<Pick<Crawler, 'logBus' | 'stats'>>;
      const spider = crawler.spider as BlockAwareSpider;
      // One ERROR line per response (the verdict is shared by both pools), counted; the response counts as not blocked.
      const onHookError = (error: unknown, response: Response): void => {
        const name = (spider as { name?: unknown }).name;
        logBus?.getLogger('seine.blocking').error(`Error in isBlocked() of spider '${String(name)}' for ${response.url}: ${(error as Error)?.message ?? String(error)} (the response counts as not blocked)`);
        stats?.inc('blocking/isBlocked_errors');
      };
      rule = new BlockedResponseRule({ statuses, selector: selector ?? null, spider, onHookError });
      rules.set(crawler, rule);
    }
    return rule;
  }

  /**
   * Why `response` is blocked (`status 429`, `selector .captcha`,
   * `isBlocked()`), or null when it is not. A selector or hook that throws
   * counts as not blocked: the spider's callback will meet the page and its error
   * (a throwing `isBlocked` is logged once as an ERROR and counted under `blocking/isBlocked_errors`).
   */
  reason(response: Response): Promise<string | null> {
    let verdict = this.#verdicts.get(response);
    if (verdict === undefined) {
      verdict = this.#decide(response);
      this.#verdicts.set(response, verdict);
    }
    return verdict;
  }

  async #decide(response: Response): Promise<string | null> {
    if (this.statuses.has(response.status)) return `status ${response.status}`;
    if (this.selector !== null && response.kind !== 'binary') {
      try {
        if (response.css(this.selector).length > 0) return `selector ${this.selector}`;
      } catch {
        // A malformed selector is reported when the crawl starts (src/sessions/session-settings.ts); a page that cannot be parsed is not a block page.
      }
    }
    if (typeof this.#spider.isBlocked === 'function') {
      try {
        if ((await this.#spider.isBlocked(response)) === true) return 'isBlocked()';
      } catch (error) {
        if (this.#onHookError === null) throw error;
        this.#onHookError(error, response);
      }
    }
    return null;
  }
}

const rules = new WeakMap<object, BlockedResponseRule>();
