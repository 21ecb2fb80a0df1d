/**
 * The registry of seine's coded errors. Every error class users can meet is
 * exported here, has a `static readonly code`, and is listed in
 * docs/errors.md with its meaning and what to do; spec/errors.spec.ts reads
 * this module's exports and keeps the two in step.
 */
export { SeineError, isSeineError } from './errors/seine-error.js';
export { SettingsError, FrozenSettingsError, SetOptionError } from './settings/settings-error.js';
export { LogFileError } from './log/log-file-error.js';
export { UsageError } from './cli/usage-error.js';
export { CssError } from './css/css-error.js';
export { XPathError } from './xpath/errors.js';
export { IndexError } from './selector/index-error.js';
