/** Python logging's level names and numbers, which Scrapy's LOG_LEVEL uses. */
export const LOG_LEVELS = {
  DEBUG: 10,
  INFO: 20,
  WARNING: 30,
  ERROR: 40,
  CRITICAL: 50,
} as const;

export type LogLevel = keyof typeof LOG_LEVELS;

export const LOG_LEVEL_NAMES = Object.keys(LOG_LEVELS) as LogLevel[];

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(LOG_LEVELS, value);
}

/**
 * Reads a level name case-insensitively ('info' → 'INFO'), or a level number
 * (20 → 'INFO'); undefined for anything else. Python's `setLevel` accepts
 * only upper-case names, but `-L info` is what people type.
 */
export function parseLogLevel(value: unknown): LogLevel | undefined {
  if (typeof value === 'number') return LOG_LEVEL_NAMES.find((name) => LOG_LEVELS[name] === value);
  if (typeof value !== 'string') return undefined;
  const upper = value.trim().toUpperCase();
  if (isLogLevel(upper)) return upper;
  // Python's aliases, still seen in old configs.
  if (upper === 'WARN') return 'WARNING';
  if (upper === 'FATAL') return 'CRITICAL';
  return undefined;
}
