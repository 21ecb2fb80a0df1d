/**
 * The objects a shell console works on, and the shortcuts that change
 * them: `fetch` updates `request`, `response`, `spider` and `item` in the
 * console's context, `shelp()` prints the `[s]` lines, `view()` opens a
 * response in the browser. Used by `seine shell` (with a ShellCrawler to
 * fetch through) and by inspectResponse (without: fetch fails clearly).
 */
import type { Crawler } from '../contracts/crawler.js';
import { isRequest, type Request } from '../http/request.js';
import { isResponse, type Response } from '../http/response.js';
import { seineModuleUrl } from '../package-root.js';
import type { Spider } from '../contracts/spider.js';
import { helpText } from './help-text.js';
import { openInBrowser } from './open-in-browser.js';
import type { ShellCrawler } from './shell-crawler.js';
import { FetchInCrawlError, ShellFetchError, ShellUsageError } from './shell-errors.js';
import { shellRequest } from './shell-request.js';

export interface ShellSessionOptions {
  readonly crawler: Crawler;
  readonly spider: Spider;
  /** The engine `fetch` goes through; absent inside a running crawl. */
  readonly shellCrawler?: ShellCrawler;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where shelp() prints. */
  readonly write: (text: string) => void;
  /** The framework module the console shows as `seine` (loadSeineModule()). */
  readonly seine: object;
}

/**
 * The public `seine` module, for the console's `seine` object: loaded by the
 * running copy's package entry (package-root.ts), as a spider's
 * `import 'seine'` is, when a console opens. Not by a relative path: `seine`
 * re-exports the shell's and the CLI's error classes (error-registry.ts),
 * so the shell importing it would make the folders depend on each other,
 * and the console is to show the very module a spider gets.
 */
export function loadSeineModule(): Promise<object> {
  return import(seineModuleUrl('')) as Promise<object>;
}

export interface FetchOptions {
  /** Follow redirects (default true); `false` keeps the 3xx response. */
  readonly redirect?: boolean;
  /** Render the page in the browser (Chromium): `fetch(url, { playwright: true })`. */
  readonly playwright?: boolean;
}

export class ShellSession {
  /** The console's variables; the console's context is this object. */
  readonly vars: Record<string, unknown>;

  constructor(readonly options: ShellSessionOptions) {
    this.vars = {
      seine: options.seine,
      crawler: options.crawler,
      item: {},
      request: null,
      response: null,
      settings: options.crawler.settings,
      spider: options.spider,
      // A failed fetch prints one line and keeps the objects, as the issue of a bad URL is no reason for a stack trace.
      fetch: async (target: string | Request, fetchOptions?: FetchOptions) => {
        try {
          await this.fetch(target, fetchOptions);
        } catch (error) {
          if (!(error instanceof ShellFetchError || error instanceof FetchInCrawlError)) throw error;
          options.write(`${error.name}: ${error.message}\n`);
        }
      },
      view: (response: Response | null = this.vars['response'] as Response | null) => {
        if (!isResponse(response)) throw new ShellUsageError('view() shows a response: fetch a page first, or pass one, e.g. view(response)');
        return openInBrowser(response, { env: options.env });
      },
      shelp: () => {
        options.write(`${this.help()}\n`);
      },
    };
  }

  get canFetch(): boolean {
    return this.options.shellCrawler !== undefined;
  }

  help(): string {
    const v = this.vars;
    return helpText(
      { crawler: v['crawler'], item: v['item'], request: v['request'], response: v['response'], settings: v['settings'], spider: v['spider'] },
      { canFetch: this.canFetch },
    );
  }

  /** Sets the objects for a response (the start URL's, or the one inspectResponse was given). */
  populate(request: Request | null, response: Response | null): void {
    this.vars['request'] = request;
    this.vars['response'] = response;
    this.vars['item'] = {};
    this.vars['spider'] = this.options.spider;
  }

  /**
   * Downloads a URL or a Request and updates the objects; resolves once
   * they are updated. A failure rejects with a one-line ShellFetchError and
   * leaves the objects as they were.
   */
  async fetch(target: string | Request, options: FetchOptions = {}): Promise<void> {
    const engine = this.options.shellCrawler;
    if (engine === undefined) throw new FetchInCrawlError();
    if (!isRequest(target) && typeof target !== 'string') {
      throw new ShellUsageError('fetch() takes a URL (a string) or a seine.Request, e.g. fetch("https://example.com/") or fetch(request.replace({ method: "POST" }))');
    }
    const request = shellRequest(target, { redirect: options.redirect, cwd: this.options.cwd, ...(options.playwright === undefined ? {} : { browser: options.playwright }) });
    const response = await engine.fetch(request);
    this.populate(isRequest(target) ? target : request, response);
  }
}
