export { PageMethod } from './page-method.js';
export { BrowserDownloadHandler } from './browser-handler.js';
export { browserSettings, type BrowserSettings, type BrowserRequestInfo, type AbortRequestPredicate } from './browser-settings.js';
export { usesBrowser } from './uses-browser.js';
export { findChromium, CHROMIUM_NAMES } from './find-chromium.js';
export { NoChromiumError, BrowserLaunchError, PageCrashedError, BrowserClosedError, PageMethodError } from './browser-errors.js';
