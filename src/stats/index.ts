export { MemoryStatsCollector, STATS_LOGGER, type MemoryStatsCollectorOptions } from './memory-stats-collector.js';
export { applyEvent, errorClassName } from './event-stats.js';
export { applyLogEvent, countLogEvents } from './log-counter.js';
export { formatStatsDump, FLOAT_STATS } from './stats-dump.js';
export { pformat, type PformatOptions } from './pformat.js';
