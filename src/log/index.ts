export { LOG_LEVELS, LOG_LEVEL_NAMES, isLogLevel, parseLogLevel, type LogLevel } from '../settings/log-levels.js';
export type { LogEvent } from './log-event.js';
export { LogBus, Logger, defaultLogBus, getLogger, type LogBusOptions, type LogExtra } from './log-bus.js';
export {
  DEFAULT_LOG_DATEFORMAT,
  DEFAULT_LOG_FORMAT,
  compileLogFormat,
  formatLogLine,
  type LogFormatOptions,
} from './format.js';
export { formatDate } from './strftime.js';
export { attachLogSink, logSinkOptions, type LogSinkOptions, type TextWriter } from './sink.js';
export { loggingWriter, redirectProcessStdout } from './stdout-redirect.js';
export { logStartupInfo, STARTUP_LOGGER } from './startup-info.js';
export { LogFileError } from './log-file-error.js';
