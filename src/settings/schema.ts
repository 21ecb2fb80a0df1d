/**
 * The settings seine knows, with their value types. `Settings.get()` is typed
 * from this interface (`get('CONCURRENT_REQUESTS')` is a `number`), and
 * `SETTING_KINDS` tells it at run time how to read a string from `-s` as that
 * type, so the static type holds at run time too. Meanings and defaults are
 * Scrapy's; docs/settings.md documents each one (a test keeps it complete).
 */
import type { LogLevel } from './log-levels.js';

/**
 * A class given as a setting's value (FEED_EXPORTERS, HTTPCACHE_POLICY,
 * HTTPCACHE_STORAGE). Settings are the bottom layer, so the component's own
 * contract is checked where the component is built (src/feeds,
 * src/middlewares/downloader), not here.
 */
export type ClassSetting = abstract new (...args: never[]) => unknown;

/**
 * Component name → order, like Scrapy's `DOWNLOADER_MIDDLEWARES`. Lower
 * orders run closer to the engine; `null` disables a component listed in the
 * matching `*_BASE` setting. Names are built-in component names or, for a
 * project's own components, the name its loader documents (Scrapy uses Python
 * import paths here).
 */
export type ComponentOrders = Record<string, number | null>;

/** URL scheme → a download handler class, a built-in handler's name, or `null` to turn the scheme off (Scrapy's `DOWNLOAD_HANDLERS`). */
export type DownloadHandlerMap = Record<string, ClassSetting | string | null>;

/** One `FEEDS` entry, keyed by the feed's URI. Option names are Scrapy's. */
export interface FeedOptions {
  format: string;
  overwrite?: boolean;
  encoding?: string | null;
  fields?: string[] | null;
  indent?: number | null;
  store_empty?: boolean;
  batch_item_count?: number;
  readonly [option: string]: unknown;
}

/** One `DOWNLOAD_SLOTS` entry: Scrapy's per-slot options, plus `rate` ('N/s', 'N/m' or 'N/h'). */
export interface DownloadSlotSettings {
  concurrency?: number;
  delay?: number;
  randomize_delay?: boolean;
  rate?: string;
}

export interface SettingsSchema {
  ALLOW_LOCAL_SCHEMES_FROM_REMOTE: boolean;
  AUTOTHROTTLE_ENABLED: boolean;
  AUTOTHROTTLE_DEBUG: boolean;
  AUTOTHROTTLE_MAX_DELAY: number;
  AUTOTHROTTLE_START_DELAY: number;
  AUTOTHROTTLE_TARGET_CONCURRENCY: number;
  AWS_ACCESS_KEY_ID: string | null;
  AWS_SECRET_ACCESS_KEY: string | null;
  AWS_SESSION_TOKEN: string | null;
  AWS_ENDPOINT_URL: string | null;
  AWS_REGION_NAME: string | null;
  AWS_USE_SSL: boolean;
  AWS_VERIFY: boolean;
  BOT_NAME: string;
  CLOSESPIDER_TIMEOUT: number;
  CLOSESPIDER_PAGECOUNT: number;
  CLOSESPIDER_ITEMCOUNT: number;
  CLOSESPIDER_ERRORCOUNT: number;
  COMPRESSION_ENABLED: boolean;
  CONCURRENT_ITEMS: number;
  CONCURRENT_REQUESTS: number;
  CONCURRENT_REQUESTS_PER_DOMAIN: number;
  CONCURRENT_REQUESTS_PER_IP: number;
  COOKIES_ENABLED: boolean;
  COOKIES_DEBUG: boolean;
  DEFAULT_REQUEST_HEADERS: Record<string, string>;
  CRAWLSPIDER_FOLLOW_LINKS: boolean;
  DASHBOARD_ENABLED: boolean;
  DASHBOARD_PORT: number;
  DASHBOARD_BIND: string;
  DASHBOARD_USERNAME: string | null;
  DASHBOARD_PASSWORD: string | null;
  DASHBOARD_PORT_FILE: string | null;
  DEPTH_LIMIT: number;
  DEPTH_PRIORITY: number;
  DEPTH_STATS_VERBOSE: boolean;
  DOWNLOAD_DELAY: number;
  DOWNLOAD_FAIL_ON_DATALOSS: boolean;
  DOWNLOAD_HANDLERS: DownloadHandlerMap;
  DOWNLOAD_HANDLERS_BASE: DownloadHandlerMap;
  DOWNLOAD_MAXHEADERSIZE: number;
  DOWNLOAD_LENIENT_HTTP: boolean;
  DOWNLOAD_MAXSIZE: number;
  DOWNLOAD_SLOTS: Record<string, DownloadSlotSettings>;
  DOWNLOAD_WARNSIZE: number;
  DOWNLOAD_TIMEOUT: number;
  DOWNLOADER_MIDDLEWARES: ComponentOrders;
  DOWNLOADER_MIDDLEWARES_BASE: ComponentOrders;
  DOWNLOADER_STATS: boolean;
  EXTENSIONS: ComponentOrders;
  EXTENSIONS_BASE: ComponentOrders;
  FEEDS: Record<string, FeedOptions>;
  FEED_EXPORT_BATCH_ITEM_COUNT: number;
  FEED_EXPORT_ENCODING: string | null;
  FEED_EXPORT_FIELDS: string[] | null;
  FEED_EXPORT_INDENT: number;
  /** Format → exporter class, a built-in exporter's name, or null to disable a built-in format. */
  FEED_EXPORTERS: Record<string, ClassSetting | string | null>;
  FEED_EXPORTERS_BASE: Record<string, string>;
  FEED_STORE_EMPTY: boolean;
  FEED_TEMPDIR: string | null;
  FILES_STORE: string | null;
  FILES_URLS_FIELD: string;
  FILES_RESULT_FIELD: string;
  FILES_EXPIRES: number;
  FILES_STORE_S3_ACL: string;
  FEED_STORAGE_FTP_ACTIVE: boolean;
  FEED_STORAGE_S3_ACL: string;
  FTPS_VERIFY: boolean;
  HEAP_GROWTH_PERCENT: number;
  HEAP_YOUNG_GENERATION_MB: number;
  IMAGES_STORE: string | null;
  IMAGES_URLS_FIELD: string;
  IMAGES_RESULT_FIELD: string;
  IMAGES_EXPIRES: number;
  IMAGES_STORE_S3_ACL: string;
  /** Thumbnail name → [width, height] it fits in. */
  IMAGES_THUMBS: Record<string, readonly [number, number]>;
  IMAGES_MIN_WIDTH: number;
  IMAGES_MIN_HEIGHT: number;
  /** Image formats stored as they come instead of as JPEG (`webp`, `avif`, `png`, …). */
  IMAGES_KEEP_FORMATS: string[];
  HTTPCACHE_ENABLED: boolean;
  HTTPCACHE_DIR: string;
  HTTPCACHE_EXPIRATION_SECS: number;
  HTTPCACHE_IGNORE_HTTP_CODES: number[];
  HTTPCACHE_IGNORE_MISSING: boolean;
  HTTPCACHE_IGNORE_SCHEMES: string[];
  HTTPCACHE_IGNORE_RESPONSE_CACHE_CONTROLS: string[];
  HTTPCACHE_ALWAYS_STORE: boolean;
  /** A built-in policy's name ('DummyPolicy', 'RFC2616Policy') or a policy class. */
  HTTPCACHE_POLICY: string | ClassSetting;
  /** A built-in storage's name ('FilesystemCacheStorage') or a storage class. */
  HTTPCACHE_STORAGE: string | ClassSetting;
  HTTPCACHE_GZIP: boolean;
  HTTPERROR_ALLOWED_CODES: number[];
  HTTPERROR_ALLOW_ALL: boolean;
  ITEM_PIPELINES: ComponentOrders;
  ITEM_PIPELINES_BASE: ComponentOrders;
  JOBDIR: string | null;
  LOG_ENABLED: boolean;
  LOG_ENCODING: string;
  LOG_FILE: string | null;
  LOG_FILE_APPEND: boolean;
  LOG_FORMAT: string;
  LOG_DATEFORMAT: string;
  LOG_LEVEL: LogLevel;
  LOG_STDOUT: boolean;
  LOG_SHORT_NAMES: boolean;
  LOGSTATS_INTERVAL: number;
  MEMUSAGE_CHECK_INTERVAL_SECONDS: number;
  MEMUSAGE_ENABLED: boolean;
  MEMUSAGE_LIMIT_MB: number;
  MEMUSAGE_WARNING_MB: number;
  MEDIA_ALLOW_REDIRECTS: boolean;
  METAREFRESH_ENABLED: boolean;
  METAREFRESH_IGNORE_TAGS: string[];
  METAREFRESH_MAXDELAY: number;
  MONITORS: Record<string, unknown>;
  MONITORS_PERIODIC: Record<string, unknown>;
  MONITORS_REPORT: string | null;
  MONITORS_WEBHOOK_URL: string | null;
  NEWSPIDER_MODULE: string;
  RANDOMIZE_DOWNLOAD_DELAY: boolean;
  REDIRECT_ENABLED: boolean;
  REDIRECT_MAX_TIMES: number;
  REDIRECT_PRIORITY_ADJUST: number;
  REFERER_ENABLED: boolean;
  RETRY_ENABLED: boolean;
  RETRY_TIMES: number;
  RETRY_BACKOFF_MAX: number;
  PLAYWRIGHT_ABORT_REQUEST: ((request: { url(): string; resourceType(): string }) => boolean | Promise<boolean>) | null;
  PLAYWRIGHT_AUTO_RECHECK: number;
  PLAYWRIGHT_BROWSER_TYPE: string;
  PLAYWRIGHT_BY_DEFAULT: boolean;
  PLAYWRIGHT_CONTEXTS: Record<string, Record<string, unknown>>;
  PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT: number;
  PLAYWRIGHT_LAUNCH_OPTIONS: Record<string, unknown>;
  PLAYWRIGHT_MAX_CONTEXTS: number;
  PLAYWRIGHT_MAX_PAGES_PER_CONTEXT: number;
  PLAYWRIGHT_RECYCLE_CONTEXT_PAGES: number;
  REDIS_BLOOM_CAPACITY: number;
  REDIS_BLOOM_ERROR_RATE: number;
  REDIS_CONNECT_TIMEOUT: number;
  REDIS_DUPEFILTER: string;
  REDIS_ITEMS: boolean;
  REDIS_KEY_PREFIX: string;
  REDIS_LEASE_SECS: number;
  REDIS_URL: string;
  RETRY_BACKOFF_BASE: number;
  REFERRER_POLICY: string;
  HTTPPROXY_ENABLED: boolean;
  HTTPPROXY_AUTH_ENCODING: string;
  DUPEFILTER_DEBUG: boolean;
  RETRY_HTTP_CODES: number[];
  RETRY_PRIORITY_ADJUST: number;
  ROBOTSTXT_OBEY: boolean;
  ROBOTSTXT_USER_AGENT: string | null;
  PROXY_LIST: string[];
  PROXY_TIERS: string[][];
  PROXY_ROTATION: string;
  PROXY_BACKOFF_BASE: number;
  PROXY_BACKOFF_CAP: number;
  SCHEDULER: string;
  SESSIONS_ENABLED: boolean;
  SESSIONS_POOL_SIZE: number;
  SESSIONS_MAX_USAGE: number;
  SESSIONS_BLOCKED_STATUS: number[];
  SESSIONS_BLOCKED_SELECTOR: string | null;
  SESSIONS_MAX_RETRIES: number;
  SESSIONS_BROWSER_HEADERS: boolean;
  SCHEDULER_DISK_QUEUE: string;
  SCHEDULER_MEMORY_QUEUE: string;
  SCHEDULER_PRIORITY_QUEUE: string;
  SPIDER_CONTRACTS: ComponentOrders;
  SPIDER_CONTRACTS_BASE: ComponentOrders;
  SPIDER_MIDDLEWARES: ComponentOrders;
  SPIDER_MIDDLEWARES_BASE: ComponentOrders;
  SPIDER_MODULES: string[];
  SFTP_PRIVATE_KEY: string | null;
  SFTP_HOST_FINGERPRINT: string | null;
  STORE_TIMEOUT: number;
  STATS_DUMP: boolean;
  TELNETCONSOLE_ENABLED: boolean;
  TELNETCONSOLE_HOST: string;
  TELNETCONSOLE_PORT: number[];
  TELNETCONSOLE_USERNAME: string;
  TELNETCONSOLE_PASSWORD: string | null;
  TELNETCONSOLE_LOGIN_ATTEMPTS: number;
  TELNETCONSOLE_LOGIN_TIMEOUT: number;
  URLLENGTH_LIMIT: number;
  USER_AGENT: string;
  VALIDATION_FAILURES: string;
  VALIDATION_SAMPLES: number;
  WATCHDOG_ENABLED: boolean;
  WATCHDOG_WARNING_SECONDS: number;
  WATCHDOG_CLOSE_GRACE_SECONDS: number;
  WARC_ENABLED: boolean;
  WARC_DIR: string;
  WARC_MAX_SIZE: number;
  WORKERS: number;
}

export type SettingName = keyof SettingsSchema;

/** The type of a setting's value: its schema type when known, `unknown` otherwise. */
export type SettingValue<K extends string> = K extends SettingName ? SettingsSchema[K] : unknown;

/**
 * What may be stored under a name: its schema type, or a string (what `-s`
 * and INI files give), read as the schema type by `get()`.
 */
export type SettingInput<K extends string> = K extends SettingName ? SettingsSchema[K] | string : unknown;

/** A bag of settings to `setdict()`: known names are type-checked, others are free. */
export type SettingsInput = { readonly [K in SettingName]?: SettingsSchema[K] | string } & {
  readonly [name: string]: unknown;
};

/** How `get()` reads a stored value for a known setting; see coerce.ts. */
export type SettingKind =
  | 'bool'
  | 'int'
  | 'float'
  | 'string'
  | 'nullableString'
  | 'logLevel'
  | 'stringList'
  | 'nullableStringList'
  | 'nameOrClass'
  | 'intList'
  | 'stringListList'
  | 'dict';

// The kinds that fit a schema type, so SETTING_KINDS cannot drift from SettingsSchema.
type KindsFor<T> = [T] extends [boolean]
  ? 'bool'
  : [T] extends [number]
    ? 'int' | 'float'
    : [T] extends [LogLevel]
      ? 'logLevel'
      : [T] extends [string]
        ? 'string'
        : [T] extends [string | null]
          ? 'nullableString'
          : [T] extends [number[]]
            ? 'intList'
            : [T] extends [string[]]
              ? 'stringList'
              : [T] extends [string[] | null]
                ? 'nullableStringList'
                : [T] extends [string[][]]
                  ? 'stringListList'
                  : [T] extends [string | (abstract new (...args: never[]) => unknown)]
                    ? 'nameOrClass'
                    : 'dict';

export const SETTING_KINDS: { readonly [K in SettingName]: KindsFor<SettingsSchema[K]> } = {
  ALLOW_LOCAL_SCHEMES_FROM_REMOTE: 'bool',
  AUTOTHROTTLE_ENABLED: 'bool',
  AUTOTHROTTLE_DEBUG: 'bool',
  AUTOTHROTTLE_MAX_DELAY: 'float',
  AUTOTHROTTLE_START_DELAY: 'float',
  AUTOTHROTTLE_TARGET_CONCURRENCY: 'float',
  AWS_ACCESS_KEY_ID: 'nullableString',
  AWS_SECRET_ACCESS_KEY: 'nullableString',
  AWS_SESSION_TOKEN: 'nullableString',
  AWS_ENDPOINT_URL: 'nullableString',
  AWS_REGION_NAME: 'nullableString',
  AWS_USE_SSL: 'bool',
  AWS_VERIFY: 'bool',
  BOT_NAME: 'string',
  CLOSESPIDER_TIMEOUT: 'float',
  CLOSESPIDER_PAGECOUNT: 'int',
  CLOSESPIDER_ITEMCOUNT: 'int',
  CLOSESPIDER_ERRORCOUNT: 'int',
  COMPRESSION_ENABLED: 'bool',
  CONCURRENT_ITEMS: 'int',
  CONCURRENT_REQUESTS: 'int',
  CONCURRENT_REQUESTS_PER_DOMAIN: 'int',
  CONCURRENT_REQUESTS_PER_IP: 'int',
  COOKIES_ENABLED: 'bool',
  COOKIES_DEBUG: 'bool',
  DEFAULT_REQUEST_HEADERS: 'dict',
  CRAWLSPIDER_FOLLOW_LINKS: 'bool',
  DASHBOARD_ENABLED: 'bool',
  DASHBOARD_PORT: 'int',
  DASHBOARD_BIND: 'string',
  DASHBOARD_USERNAME: 'nullableString',
  DASHBOARD_PASSWORD: 'nullableString',
  DASHBOARD_PORT_FILE: 'nullableString',
  DEPTH_LIMIT: 'int',
  DEPTH_PRIORITY: 'int',
  DEPTH_STATS_VERBOSE: 'bool',
  DOWNLOAD_DELAY: 'float',
  DOWNLOAD_FAIL_ON_DATALOSS: 'bool',
  DOWNLOAD_HANDLERS: 'dict',
  DOWNLOAD_HANDLERS_BASE: 'dict',
  DOWNLOAD_MAXHEADERSIZE: 'int',
  DOWNLOAD_LENIENT_HTTP: 'bool',
  DOWNLOAD_MAXSIZE: 'int',
  DOWNLOAD_SLOTS: 'dict',
  DOWNLOAD_WARNSIZE: 'int',
  DOWNLOAD_TIMEOUT: 'float',
  DOWNLOADER_MIDDLEWARES: 'dict',
  DOWNLOADER_MIDDLEWARES_BASE: 'dict',
  DOWNLOADER_STATS: 'bool',
  EXTENSIONS: 'dict',
  EXTENSIONS_BASE: 'dict',
  FEEDS: 'dict',
  FEED_EXPORT_BATCH_ITEM_COUNT: 'int',
  FEED_EXPORT_ENCODING: 'nullableString',
  FEED_EXPORT_FIELDS: 'nullableStringList',
  FEED_EXPORT_INDENT: 'int',
  FEED_EXPORTERS: 'dict',
  FEED_EXPORTERS_BASE: 'dict',
  FEED_STORE_EMPTY: 'bool',
  FEED_TEMPDIR: 'nullableString',
  FILES_STORE: 'nullableString',
  FILES_URLS_FIELD: 'string',
  FILES_RESULT_FIELD: 'string',
  FILES_EXPIRES: 'int',
  FILES_STORE_S3_ACL: 'string',
  FEED_STORAGE_FTP_ACTIVE: 'bool',
  FEED_STORAGE_S3_ACL: 'string',
  FTPS_VERIFY: 'bool',
  HEAP_GROWTH_PERCENT: 'int',
  HEAP_YOUNG_GENERATION_MB: 'int',
  IMAGES_STORE: 'nullableString',
  IMAGES_URLS_FIELD: 'string',
  IMAGES_RESULT_FIELD: 'string',
  IMAGES_EXPIRES: 'int',
  IMAGES_STORE_S3_ACL: 'string',
  IMAGES_THUMBS: 'dict',
  IMAGES_MIN_WIDTH: 'int',
  IMAGES_MIN_HEIGHT: 'int',
  IMAGES_KEEP_FORMATS: 'stringList',
  HTTPCACHE_ENABLED: 'bool',
  HTTPCACHE_DIR: 'string',
  HTTPCACHE_EXPIRATION_SECS: 'int',
  HTTPCACHE_IGNORE_HTTP_CODES: 'intList',
  HTTPCACHE_IGNORE_MISSING: 'bool',
  HTTPCACHE_IGNORE_SCHEMES: 'stringList',
  HTTPCACHE_IGNORE_RESPONSE_CACHE_CONTROLS: 'stringList',
  HTTPCACHE_ALWAYS_STORE: 'bool',
  HTTPCACHE_POLICY: 'nameOrClass',
  HTTPCACHE_STORAGE: 'nameOrClass',
  HTTPCACHE_GZIP: 'bool',
  HTTPERROR_ALLOWED_CODES: 'intList',
  HTTPERROR_ALLOW_ALL: 'bool',
  ITEM_PIPELINES: 'dict',
  ITEM_PIPELINES_BASE: 'dict',
  JOBDIR: 'nullableString',
  LOG_ENABLED: 'bool',
  LOG_ENCODING: 'string',
  LOG_FILE: 'nullableString',
  LOG_FILE_APPEND: 'bool',
  LOG_FORMAT: 'string',
  LOG_DATEFORMAT: 'string',
  LOG_LEVEL: 'logLevel',
  LOG_STDOUT: 'bool',
  LOG_SHORT_NAMES: 'bool',
  LOGSTATS_INTERVAL: 'float',
  MEMUSAGE_CHECK_INTERVAL_SECONDS: 'float',
  MEMUSAGE_ENABLED: 'bool',
  MEMUSAGE_LIMIT_MB: 'int',
  MEMUSAGE_WARNING_MB: 'int',
  MEDIA_ALLOW_REDIRECTS: 'bool',
  METAREFRESH_ENABLED: 'bool',
  METAREFRESH_IGNORE_TAGS: 'stringList',
  METAREFRESH_MAXDELAY: 'float',
  MONITORS: 'dict',
  MONITORS_PERIODIC: 'dict',
  MONITORS_REPORT: 'nullableString',
  MONITORS_WEBHOOK_URL: 'nullableString',
  NEWSPIDER_MODULE: 'string',
  RANDOMIZE_DOWNLOAD_DELAY: 'bool',
  REDIRECT_ENABLED: 'bool',
  REDIRECT_MAX_TIMES: 'int',
  REDIRECT_PRIORITY_ADJUST: 'int',
  REFERER_ENABLED: 'bool',
  RETRY_ENABLED: 'bool',
  RETRY_TIMES: 'int',
  RETRY_BACKOFF_MAX: 'float',
  PLAYWRIGHT_ABORT_REQUEST: 'dict',
  PLAYWRIGHT_AUTO_RECHECK: 'int',
  PLAYWRIGHT_BROWSER_TYPE: 'string',
  PLAYWRIGHT_BY_DEFAULT: 'bool',
  PLAYWRIGHT_CONTEXTS: 'dict',
  PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT: 'float',
  PLAYWRIGHT_LAUNCH_OPTIONS: 'dict',
  PLAYWRIGHT_MAX_CONTEXTS: 'int',
  PLAYWRIGHT_MAX_PAGES_PER_CONTEXT: 'int',
  PLAYWRIGHT_RECYCLE_CONTEXT_PAGES: 'int',
  REDIS_BLOOM_CAPACITY: 'int',
  REDIS_BLOOM_ERROR_RATE: 'float',
  REDIS_CONNECT_TIMEOUT: 'float',
  REDIS_DUPEFILTER: 'string',
  REDIS_ITEMS: 'bool',
  REDIS_KEY_PREFIX: 'string',
  REDIS_LEASE_SECS: 'float',
  REDIS_URL: 'string',
  RETRY_BACKOFF_BASE: 'float',
  REFERRER_POLICY: 'string',
  HTTPPROXY_ENABLED: 'bool',
  HTTPPROXY_AUTH_ENCODING: 'string',
  DUPEFILTER_DEBUG: 'bool',
  RETRY_HTTP_CODES: 'intList',
  RETRY_PRIORITY_ADJUST: 'int',
  ROBOTSTXT_OBEY: 'bool',
  ROBOTSTXT_USER_AGENT: 'nullableString',
  PROXY_LIST: 'stringList',
  PROXY_TIERS: 'stringListList',
  PROXY_ROTATION: 'string',
  PROXY_BACKOFF_BASE: 'float',
  PROXY_BACKOFF_CAP: 'float',
  SCHEDULER: 'string',
  SESSIONS_ENABLED: 'bool',
  SESSIONS_POOL_SIZE: 'int',
  SESSIONS_MAX_USAGE: 'int',
  SESSIONS_BLOCKED_STATUS: 'intList',
  SESSIONS_BLOCKED_SELECTOR: 'nullableString',
  SESSIONS_MAX_RETRIES: 'int',
  SESSIONS_BROWSER_HEADERS: 'bool',
  SCHEDULER_DISK_QUEUE: 'string',
  SCHEDULER_MEMORY_QUEUE: 'string',
  SCHEDULER_PRIORITY_QUEUE: 'string',
  SPIDER_CONTRACTS: 'dict',
  SPIDER_CONTRACTS_BASE: 'dict',
  SPIDER_MIDDLEWARES: 'dict',
  SPIDER_MIDDLEWARES_BASE: 'dict',
  SPIDER_MODULES: 'stringList',
  SFTP_PRIVATE_KEY: 'nullableString',
  SFTP_HOST_FINGERPRINT: 'nullableString',
  STORE_TIMEOUT: 'float',
  STATS_DUMP: 'bool',
  TELNETCONSOLE_ENABLED: 'bool',
  TELNETCONSOLE_HOST: 'string',
  TELNETCONSOLE_PORT: 'intList',
  TELNETCONSOLE_USERNAME: 'string',
  TELNETCONSOLE_PASSWORD: 'nullableString',
  TELNETCONSOLE_LOGIN_ATTEMPTS: 'int',
  TELNETCONSOLE_LOGIN_TIMEOUT: 'float',
  URLLENGTH_LIMIT: 'int',
  USER_AGENT: 'string',
  VALIDATION_FAILURES: 'string',
  VALIDATION_SAMPLES: 'int',
  WATCHDOG_ENABLED: 'bool',
  WATCHDOG_WARNING_SECONDS: 'float',
  WATCHDOG_CLOSE_GRACE_SECONDS: 'float',
  WARC_ENABLED: 'bool',
  WARC_DIR: 'string',
  WARC_MAX_SIZE: 'int',
  WORKERS: 'int',
};

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTING_KINDS, name);
}
