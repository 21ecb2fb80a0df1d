import type { LogLevel } from '../settings/log-levels.js';

/**
 * One log record on a log bus. `extra` carries structured data for
 * subscribers (stats, tests); `extra.error`, when set, is printed after the
 * line the way Python logging prints a traceback.
 */
export interface LogEvent {
  readonly time: Date;
  /** `seine.<area>` for the framework (`seine.core.engine`); a spider's `name` for its own logger. */
  readonly logger: string;
  readonly level: LogLevel;
  readonly message: string;
  readonly extra?: Readonly<Record<string, unknown>>;
}
