/**
 * The PLAYWRIGHT_* settings, read and checked when a crawl starts — before
 * any browser is launched and without loading Playwright — so that a wrong
 * value is one line at the start, not an error on the first rendered page.
 */
import type { Settings } from '../settings/index.js';
import { SettingsError } from '../settings/settings-error.js';
import { settingAtLeast } from '../settings/setting-at-least.js';
import { isMap } from '../value-kinds.js';

/** What PLAYWRIGHT_ABORT_REQUEST receives: Playwright's Request (these are the methods it is documented to use). */
export interface BrowserRequestInfo {
  url(): string;
  method(): string;
  resourceType(): string;
  isNavigationRequest(): boolean;
}

export type AbortRequestPredicate = (request: BrowserRequestInfo) => boolean | Promise<boolean>;

export interface BrowserSettings {
  /** PLAYWRIGHT_LAUNCH_OPTIONS: Playwright's launch options (executablePath, headless, args, …). */
  readonly launchOptions: Readonly<Record<string, unknown>>;
  readonly maxContexts: number;
  readonly maxPagesPerContext: number;
  /** Navigation timeout in ms (PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT, else DOWNLOAD_TIMEOUT). */
  readonly navigationTimeoutMs: number;
  readonly abortRequest: AbortRequestPredicate | null;
  /** PLAYWRIGHT_CONTEXTS: options of named contexts (meta.playwright_context), `default` for the pooled ones. */
  readonly contexts: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** A pooled context is replaced after this many pages, which bounds the browser's memory on a long crawl. */
  readonly recyclePages: number;
  /** Every request goes through the browser unless its meta says `playwright: false`. */
  readonly byDefault: boolean;
}

function source(settings: Settings, name: string): string {
  const from = settings.getSource(name);
  return from === undefined ? '' : ` (from ${from})`;
}

function plainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isMap(value);
}

export function browserSettings(settings: Settings): BrowserSettings {
  const type = String(settings.get('PLAYWRIGHT_BROWSER_TYPE') ?? 'chromium');
  if (type !== 'chromium') {
    throw new SettingsError(
      `Setting PLAYWRIGHT_BROWSER_TYPE is ${JSON.stringify(type)}${source(settings, 'PLAYWRIGHT_BROWSER_TYPE')}: seine drives Chromium only ` +
        "(Playwright's Firefox and WebKit are its own patched builds, which seine does not download): use 'chromium'",
    );
  }
  // From -s the value is JSON text, which getDict reads; from settings.ts it is the object itself (functions kept).
  const objectSetting = (name: 'PLAYWRIGHT_LAUNCH_OPTIONS' | 'PLAYWRIGHT_CONTEXTS'): unknown => {
    const raw = settings.getRaw(name) ?? {};
    return typeof raw === 'string' ? settings.getDict(name) : raw;
  };
  const launch = objectSetting('PLAYWRIGHT_LAUNCH_OPTIONS');
  if (!plainObject(launch)) {
    throw new SettingsError(`Setting PLAYWRIGHT_LAUNCH_OPTIONS must be an object of Playwright launch options, e.g. { executablePath: '/usr/bin/chromium' }${source(settings, 'PLAYWRIGHT_LAUNCH_OPTIONS')}`);
  }
  if (launch['executablePath'] !== undefined && typeof launch['executablePath'] !== 'string') {
    throw new SettingsError(`PLAYWRIGHT_LAUNCH_OPTIONS.executablePath must be the path of a Chromium executable${source(settings, 'PLAYWRIGHT_LAUNCH_OPTIONS')}`);
  }
  const contexts = objectSetting('PLAYWRIGHT_CONTEXTS');
  if (!plainObject(contexts) || !Object.values(contexts).every(plainObject)) {
    throw new SettingsError(`Setting PLAYWRIGHT_CONTEXTS must map context names to Playwright context options, e.g. { mobile: { viewport: { width: 390, height: 844 } } }${source(settings, 'PLAYWRIGHT_CONTEXTS')}`);
  }
  const rawAbort = settings.getRaw('PLAYWRIGHT_ABORT_REQUEST') ?? null;
  const abort = rawAbort === 'null' || rawAbort === '' ? null : rawAbort;
  if (abort !== null && typeof abort !== 'function') {
    throw new SettingsError(`Setting PLAYWRIGHT_ABORT_REQUEST must be a function of the browser's request that returns true to abort it, e.g. (request) => request.resourceType() === 'image'${source(settings, 'PLAYWRIGHT_ABORT_REQUEST')}`);
  }
  // 0 (the default): a navigation may take as long as DOWNLOAD_TIMEOUT allows any download.
  const navigationTimeout = settingAtLeast(settings, 'PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT', settings.getFloat('PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT'), 0, 'milliseconds a navigation may take; 0 uses DOWNLOAD_TIMEOUT');
  const navigationTimeoutMs = navigationTimeout > 0 ? navigationTimeout : settings.getFloat('DOWNLOAD_TIMEOUT') * 1000;
  return {
    launchOptions: launch,
    maxContexts: settingAtLeast(settings, 'PLAYWRIGHT_MAX_CONTEXTS', settings.getInt('PLAYWRIGHT_MAX_CONTEXTS'), 1, 'at least one browser context is needed to render a page'),
    maxPagesPerContext: settingAtLeast(settings, 'PLAYWRIGHT_MAX_PAGES_PER_CONTEXT', settings.getInt('PLAYWRIGHT_MAX_PAGES_PER_CONTEXT'), 1, 'at least one page per context is needed to render'),
    navigationTimeoutMs,
    abortRequest: abort as AbortRequestPredicate | null,
    contexts: contexts as Record<string, Record<string, unknown>>,
    recyclePages: settingAtLeast(settings, 'PLAYWRIGHT_RECYCLE_CONTEXT_PAGES', settings.getInt('PLAYWRIGHT_RECYCLE_CONTEXT_PAGES'), 0, 'pages a pooled context renders before it is replaced; 0 never replaces it'),
    byDefault: settings.getBool('PLAYWRIGHT_BY_DEFAULT'),
  };
}
