/**
 * seine: Scrapy's interface for TypeScript on an RxJS stream engine.
 * This module is what `import … from 'seine'` gives.
 */
export { Selector, SelectorList, isSelector } from './selector/index.js';
export type { SelectorOptions, SelectorRoot, SelectorType, XPathOptions } from './selector/index.js';
export type { XPathVariables } from './xpath/index.js';
export * from './error-registry.js';
export { Settings, DEFAULT_SETTINGS, SETTINGS_PRIORITIES, type SettingKey, type Priority, type PriorityName } from './settings/index.js';
export type { SettingsSchema } from './settings/schema.js';
export { LogBus, Logger, getLogger, formatLogLine, type LogEvent, type LogLevel } from './log/index.js';
export { SEINE_VERSION as VERSION } from './version.js';
export { Request, isRequest, type RequestOptions, type Callback, type Errback, type CallbackResult, type Item } from './http/request.js';
export { JsonRequest, type JsonRequestOptions } from './http/json-request.js';
export { FormRequest, type FormRequestOptions, type FromResponseOptions, type FormData } from './http/form-request.js';
export { ItemLoader, type ItemLoaderOptions, type FieldProcessors } from './item-loader/item-loader.js';
export { PageMethod } from './browser/page-method.js';
export type { PlainResult, RenderAwareSpider } from './adaptive/index.js';
export { Contract, ContractFail, type ContractRequestArgs, type ContractRequestClass } from './check-contracts/contract.js';
export { UrlContract, CallbackKeywordArgumentsContract, MetadataContract, ReturnsContract, ScrapesContract } from './check-contracts/default-contracts.js';
export { TakeFirst, MapCompose, Join, Identity, Compose, SelectJmes, type Processor, type ProcessorLike, type LoaderContext } from './item-loader/processors.js';
export type { RequestMeta } from './http/request-meta.js';
export { Response, isResponse, type ResponseOptions, type FollowOptions } from './http/response.js';
export type { DownloadHandler, DownloadHandlerClass, DownloadHandlerContext } from './download/handlers/index.js';
export { Headers, type HeadersInit } from './http/headers.js';
export { Spider, isSpiderClass, spiderName, type SpiderClass } from './contracts/spider.js';
export { crawl, type CrawlRun } from './crawler/crawl.js';
export type { CrawlerOptions } from './crawler/crawler-impl.js';
export type { CrawlEvent, CrawlEventType } from './contracts/events.js';
export type { Crawler, StatsCollector } from './contracts/crawler.js';
export type { DownloaderMiddleware, SpiderMiddleware, ItemPipeline, Extension, SpiderOutput } from './contracts/components.js';
export { IgnoreRequest, DropItem, CloseSpider, DontCloseSpider, NotConfigured } from './contracts/control-flow.js';
export { FilesPipeline, type FileResult, type MediaInfo, type MediaResult, type MediaItemOption } from './media/files-pipeline.js';
export { ImagesPipeline } from './media/images-pipeline.js';
export { ProxyPool, ProxyPoolMiddleware, type ProxyChoice, type ProxyOutcome } from './proxies/index.js';
export { Signals, type SignalHandler } from './contracts/signals.js';
export { MonitorFailure, fail, pass, ItemCountMonitor, ErrorCountMonitor, FinishReasonMonitor, FieldCoverageMonitor, RetryRateMonitor, BanRateMonitor, ValidationMonitor, type Monitor, type MonitorClass, type MonitorOutcome, type MonitorResult, type MonitorRun, type MonitorReport } from './monitors/index.js';
export { ItemValidationPipeline, type ItemSchema, type ItemSchemaIssue, type ItemSchemaResult, type ValidationIssue, type ValidationSample } from './validation/index.js';
export type { DropReason } from './contracts/events.js';
export { createSpider, type SpiderArgs } from './contracts/create-spider.js';
export { CsvExporter, JsonExporter, JsonLinesExporter, XmlExporter, type ExporterOptions, type FieldsToExport, type ItemExporter, type ItemExporterClass } from './feeds/index.js';
export { GzipPlugin, LZMAPlugin, Bz2Plugin, BrotliPlugin, ZstdPlugin, type FeedPlugin, type FeedPluginClass, type FeedPluginOptions, type FeedPluginTarget } from './feeds/index.js';
export { fingerprint, type FingerprintOptions } from './http/fingerprint.js';
export type { FollowTarget, FollowAllQuery } from './http/response.js';
export { HttpError, isHttpError } from './middlewares/spider/http-error.js';
export { getRetryRequest } from './middlewares/downloader/retry-request.js';
export {
  HttpCacheMiddleware, DummyPolicy, RFC2616Policy, FilesystemCacheStorage,
  type HttpCachePolicy, type HttpCacheStorage, type CacheEntryMeta,
} from './middlewares/downloader/index.js';
export { LinkExtractor, Link, IGNORED_EXTENSIONS, LinkExtractorError, type LinkExtractorOptions } from './link-extractor/index.js';
export {
  CrawlSpider,
  Rule,
  XMLFeedSpider,
  CSVFeedSpider,
  SitemapSpider,
  Sitemap,
  sitemapUrlsFromRobots,
  type RuleOptions,
  type XmlIterator,
  type SitemapRule,
  type SitemapEntry,
} from './spiders/index.js';
