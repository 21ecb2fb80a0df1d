/**
 * seine: Scrapy's interface for TypeScript on an RxJS stream engine.
 * This module is what `import … from 'seine'` gives.
 */
export { Selector, SelectorList, isSelector } from './selector/index.js';
export type { SelectorOptions, SelectorRoot, SelectorType, XPathOptions } from './selector/index.js';
export type { XPathVariables } from './xpath/index.js';
export * from './errors.js';
export { Settings, DEFAULT_SETTINGS, SETTINGS_PRIORITIES, type SettingKey, type Priority, type PriorityName } from './settings/index.js';
export type { SettingsSchema } from './settings/schema.js';
export { LogBus, Logger, getLogger, formatLogLine, type LogEvent, type LogLevel } from './log/index.js';
export { SEINE_VERSION as VERSION } from './version.js';
