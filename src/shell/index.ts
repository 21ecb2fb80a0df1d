/**
 * `seine/shell`: what a spider imports to open the shell's console in the
 * middle of a crawl (`await inspectResponse(response, this)`).
 */
export { inspectResponse, type InspectOptions } from './inspect-response.js';
export { ShellFetchError, FetchInCrawlError, ShellConsoleError, InspectResponseError, ShellUsageError } from './shell-errors.js';
