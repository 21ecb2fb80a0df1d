/**
 * The registry of seine's coded errors. Every error class users can meet is
 * exported here, has a `static readonly code`, and is listed in
 * docs/errors.md with its meaning and what to do; spec/errors.spec.ts reads
 * this module's exports and keeps the two in step.
 *
 * A part of the public entry (`seine` re-exports it), not a foundation: it
 * gathers classes from every layer, so nothing below the entries imports it.
 * Code takes an error class from the file that defines it, or the base
 * classes from errors/.
 */
export { SeineError, isSeineError } from './errors/seine-error.js';
export { SettingsError, FrozenSettingsError, SetOptionError } from './settings/settings-error.js';
export { LogFileError } from './log/log-file-error.js';
export { UsageError } from './cli/usage-error.js';
export { CssError } from './css/css-error.js';
export { XPathError } from './xpath/errors.js';
export { IndexError } from './selector/index-error.js';
export { BadArgumentError } from './selector/bad-argument-error.js';
export { InvalidUrlError, NotTextResponseError, TextTooLargeError, FollowTargetError, DetachedResponseError } from './http/http-errors.js';
export { SpiderDefinitionError, SpiderArgumentError } from './contracts/spider-errors.js';
export {
  DownloadError, ConnectionRefusedError, DnsLookupError, TimeoutError, ConnectionLostError, DecompressionError,
  MaxSizeError, AbortError, TunnelError, InvalidProxyError, UnsupportedSchemeError, InvalidResponseError,
  HeadersTooLargeError,
} from './download/download-errors.js';
export { ProxyUrlError } from './middlewares/downloader/proxy-url-error.js';
export { ReferrerPolicyError } from './middlewares/spider/referrer-policy-error.js';
export { TelnetHostError, TelnetPortError } from './extensions/telnet/errors.js';
export { DashboardBindError, DashboardListenError } from './dashboard/errors.js';
export { UnknownComponentError } from './crawler/component-list.js';
export { CrawlFailedError } from './crawler/crawl-errors.js';
export { DependencyMissingError } from './errors/dependency-missing-error.js';
export { RequestSerializationError, JobdirError } from './scheduler/jobdir-errors.js';
export { FeedError, FeedConfigError } from './feeds/feed-errors.js';
export { FeedOptionError } from './cli/feed-option.js';
export { SpiderLoadError } from './project/load-module.js';
export { LinkExtractorError } from './link-extractor/link-extractor-error.js';
export { DemoSiteError } from './demo/demo-site.js';
export { NotInProjectError, ProjectConfigError, SpiderNotFoundError, DuplicateSpiderError, StartProjectError, GenSpiderError } from './project/project-errors.js';
export { NotViewableResponseError, NoBrowserError } from './shell/view-errors.js';
export { NoResponseError } from './shell/fetch-once.js';
export { NoSpiderForUrlError, CallbackNotFoundError, NoMatchingRuleError } from './cli/parse-errors.js';
export { WaitForTimeoutError } from './cli/wait-for.js';
export { ShellFetchError, FetchInCrawlError, ShellConsoleError, InspectResponseError, ShellUsageError } from './shell/shell-errors.js';
export { RedisUnreachableError, FrontierBusyError } from './frontier/frontier-errors.js';
export { CurlError } from './http/curl.js';
export { FormError } from './http/form-request.js';
export { ContractError } from './check-contracts/contract.js';
export { NoChromiumError, BrowserLaunchError, PageCrashedError, BrowserClosedError, PageMethodError } from './browser/browser-errors.js';
export { ImageFormatError } from './media/image-format-error.js';
export { FileException, ImageException } from './media/media-errors.js';
export { WarcDirError } from './warc/warc-dir-error.js';
export { StoreError } from './stores/store-error.js';
export { DeployError } from './deploy/deploy-error.js';
export { ServeConfigError, ServeUnprotectedBindError, ServeFolderBusyError } from './serve/serve-errors.js';
