/**
 * The browser download: a request rendered in a pooled page. The page is
 * navigated with the request's method, body and headers (as the downloader
 * middlewares left them: user agent, referer…), its cookies come from the
 * request's Cookie header (the cookies middleware's jar), the
 * meta.playwright_page_methods run once it has loaded, and the response
 * carries the final URL, the status and headers of the page's own response,
 * and the rendered HTML — so callbacks, selectors, middlewares and feeds
 * work on it as on any response. Failures become seine's download errors,
 * so the retry middleware retries what is worth retrying.
 *
 * This module imports Playwright's types only; browser-pool.ts loads
 * Playwright itself on the first rendered request.
 */
import type { BrowserContext, Page, Response as PageResponse, Route } from 'playwright-core';
import type { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import {
  ConnectionLostError, ConnectionRefusedError, DnsLookupError, DownloadError, TimeoutError, AbortError,
} from '../download/download-errors.js';
import { SeineError } from '../errors/seine-error.js';
import type { StatsCollector } from '../contracts/crawler.js';
import { BrowserClosedError, PageCrashedError, PageMethodError } from './browser-errors.js';
import { PageMethod } from './page-method.js';
import type { BrowserPool } from './browser-pool.js';
import type { AbortRequestPredicate } from './browser-settings.js';
import { keepNetworkExchange } from '../warc/network-exchange.js';
import { pageExchange } from './page-exchange.js';
import { browserProxy } from './browser-proxy.js';

export interface BrowserFetchOptions {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly abortRequest: AbortRequestPredicate | null;
  readonly stats: StatsCollector;
  /** WARC_ENABLED: keep the page's network request and response beside the rendered one (src/warc/network-exchange.ts). */
  readonly keepNetworkExchange?: boolean;
}

// Headers the browser sets itself (or that describe seine's own connection), not copied onto the navigation.
const BROWSER_OWNED = new Set(['cookie', 'host', 'content-length', 'connection', 'accept-encoding', 'proxy-authorization', 'keep-alive', 'transfer-encoding']);
// The body seine gives the callback is the rendered page, not the bytes on the wire.
const WIRE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

function cookiesOf(header: string | null | undefined): Array<{ name: string; value: string }> {
  if (header === null || header === undefined || header === '') return [];
  return header.split(';').flatMap((pair) => {
    const at = pair.indexOf('=');
    const name = (at < 0 ? '' : pair.slice(0, at)).trim();
    return name === '' ? [] : [{ name, value: pair.slice(at + 1).trim() }];
  });
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.replace(/^[\w.]+: /, '');
}

/** A Playwright failure as the download error a Scrapy user (and the retry middleware) knows. */
export function browserDownloadError(error: unknown, url: string, state: { crashed: boolean; timeoutMs: number }): Error {
  if (error instanceof SeineError) return error;
  if (state.crashed) return new PageCrashedError(url);
  const message = firstLine(error);
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError') return new TimeoutError(url, state.timeoutMs, { cause: error });
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (message.includes('ERR_CONNECTION_REFUSED')) return new ConnectionRefusedError(url, parsed?.host ?? url, { cause: error });
  if (message.includes('ERR_NAME_NOT_RESOLVED') || message.includes('ERR_NAME_RESOLUTION_FAILED')) return new DnsLookupError(url, parsed?.hostname ?? url, { cause: error });
  if (/ERR_(CONNECTION_RESET|CONNECTION_CLOSED|EMPTY_RESPONSE|INCOMPLETE_CHUNKED_ENCODING|CONNECTION_ABORTED)/.test(message)) {
    return new ConnectionLostError(url, { responseReceived: false, received: 0, expected: null, reason: message }, { cause: error });
  }
  if (/Target page, context or browser has been closed|Browser has been closed|browser has disconnected|Target closed/i.test(message)) return new BrowserClosedError(url, { cause: error });
  return new DownloadError(url, `Browser navigation to ${url} failed: ${message}`, { cause: error });
}

async function runPageMethods(page: Page, url: string, methods: unknown): Promise<void> {
  if (methods === undefined || methods === null) return;
  if (!Array.isArray(methods) || !methods.every((step) => step instanceof PageMethod || (typeof step === 'object' && step !== null && 'method' in step))) {
    throw new PageMethodError(url, 'list', 'meta.playwright_page_methods must be an array of PageMethod, e.g. [new PageMethod(\'waitForSelector\', \'div.quote\')]');
  }
  for (const step of methods as PageMethod[]) {
    const label = typeof step.method === 'string' ? `${step.method}(${step.args.map((arg) => JSON.stringify(arg) ?? String(arg)).join(', ')})` : step.method.name || 'function';
    const target = typeof step.method === 'string' ? (page as unknown as Record<string, unknown>)[step.method] : step.method;
    if (typeof target !== 'function') throw new PageMethodError(url, label, `a Playwright Page has no method '${String(step.method)}'`);
    try {
      step.result = typeof step.method === 'string' ? await (target as (...args: unknown[]) => unknown).apply(page, [...step.args]) : await step.method(page);
    } catch (error) {
      if (page.isClosed()) throw error;
      throw new PageMethodError(url, label, firstLine(error), { cause: error });
    }
  }
}

/** The route handler of one navigation: the main request as seine's Request says, the others as PLAYWRIGHT_ABORT_REQUEST decides. */
function router(page: Page, request: Request, options: BrowserFetchOptions): (route: Route) => Promise<void> {
  let navigated = false;
  return async (route) => {
    const browserRequest = route.request();
    try {
      if (!navigated && browserRequest.isNavigationRequest() && browserRequest.frame() === page.mainFrame()) {
        navigated = true;
        const headers: Record<string, string> = { ...browserRequest.headers() };
        for (const [name, values] of request.headers.entries()) {
          if (!BROWSER_OWNED.has(name.toLowerCase())) headers[name.toLowerCase()] = values.join(', ');
        }
        const body = request.body.length > 0 ? request.body : undefined;
        await route.continue({ method: request.method, headers, ...(body === undefined ? {} : { postData: body }) });
        return;
      }
      if (options.abortRequest !== null && (await options.abortRequest(browserRequest))) {
        options.stats.inc('playwright/request_count/aborted');
        await route.abort();
        return;
      }
      await route.continue();
    } catch {
      // The page closed while the request was routed: nothing left to answer.
    }
  };
}

async function responseBody(page: Page, pageResponse: PageResponse | null): Promise<{ body: Buffer; html: boolean }> {
  const type = pageResponse === null ? 'text/html' : ((await pageResponse.headerValue('content-type')) ?? '');
  if (pageResponse === null || /html|xml/i.test(type) || type === '') return { body: Buffer.from(await page.content(), 'utf8'), html: true };
  return { body: await pageResponse.body(), html: false };
}

/** Renders `request` in a page of `pool` and returns its response. */
export async function browserFetch(pool: BrowserPool, request: Request, options: BrowserFetchOptions): Promise<Response> {
  if (options.signal.aborted) throw new AbortError(request.url);
  const meta = request.meta;
  const contextName = typeof meta['playwright_context'] === 'string' && meta['playwright_context'] !== '' ? meta['playwright_context'] : null;
  const proxy = browserProxy(request);
  const lease = await pool.acquire({ contextName, proxy });
  const { page } = lease;
  const state = { crashed: false, timeoutMs: options.timeoutMs };
  let onCrash: () => void = () => undefined;
  const crash = new Promise<void>((resolve) => (onCrash = resolve));
  const crashed = (): void => {
    state.crashed = true;
    onCrash();
  };
  page.on('crash', crashed);
  const onAbort = (): void => void page.close().catch(() => undefined);
  options.signal.addEventListener('abort', onAbort, { once: true });
  let keepOpen = false;
  let succeeded = false;
  try {
    const cookies = cookiesOf(request.headers.get('Cookie'));
    if (cookies.length > 0) await (lease.context as BrowserContext).addCookies(cookies.map((cookie) => ({ ...cookie, url: request.url })));
    await page.route('**/*', router(page, request, options));
    page.setDefaultTimeout(options.timeoutMs);
    const gotoOptions = typeof meta['playwright_page_goto_kwargs'] === 'object' && meta['playwright_page_goto_kwargs'] !== null ? (meta['playwright_page_goto_kwargs'] as Record<string, unknown>) : {};
    const pageResponse = await page.goto(request.url, { timeout: options.timeoutMs, ...gotoOptions });
    await runPageMethods(page, request.url, meta['playwright_page_methods']);
    const { body, html } = await responseBody(page, pageResponse);
    const headers: Array<[string, string]> = [];
    for (const { name, value } of (await pageResponse?.headersArray()) ?? []) if (!WIRE_HEADERS.has(name.toLowerCase())) headers.push([name, value]);
    if (html && !headers.some(([name]) => name.toLowerCase() === 'content-type')) headers.push(['Content-Type', 'text/html; charset=utf-8']);
    const response = new Response({
      url: page.url(),
      status: pageResponse?.status() ?? 200,
      headers,
      body,
      request,
      flags: ['playwright'],
      ...(html ? { encoding: 'utf-8' } : {}),
    });
    if (options.keepNetworkExchange === true && pageResponse !== null) {
      keepNetworkExchange(response, await pageExchange(pageResponse, { rendered: html, networkBody: html ? null : body }));
    }
    if (meta['playwright_include_page'] === true) {
      meta['playwright_page'] = page;
      keepOpen = true;
    }
    succeeded = true;
    return response;
  } catch (error) {
    if (options.signal.aborted) throw new AbortError(request.url, { cause: error });
    // A killed renderer fails the navigation (net::ERR_ABORTED) a moment before the page reports the crash.
    if (!state.crashed && /ERR_ABORTED/.test(firstLine(error))) await Promise.race([crash, new Promise((resolve) => setTimeout(resolve, 500))]);
    throw browserDownloadError(error, request.url, state);
  } finally {
    options.signal.removeEventListener('abort', onAbort);
    page.off('crash', crashed);
    if (keepOpen) await page.unrouteAll({ behavior: 'ignoreErrors' }).catch(() => undefined);
    // A page that failed may be mid-navigation or broken: it is closed, not lent again.
    await lease.release(keepOpen ? 'keep' : succeeded ? 'reuse' : 'close');
  }
}
