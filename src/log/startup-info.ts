import type { Settings } from '../settings/settings.js';
import { SEINE_VERSION, componentVersions } from '../version.js';
import type { Logger } from './log-bus.js';

/** The logger Scrapy uses for its first two lines (scrapy.utils.log). */
export const STARTUP_LOGGER = 'seine.utils.log';

/**
 * The two lines Scrapy logs first: `seine 0.1.0 started (bot: seinebot)` and
 * `Versions: Node.js 20.20.2, rxjs 7.8.2, …, Platform Linux-…`.
 */
export function logStartupInfo(logger: Logger, settings: Settings): void {
  logger.info(`seine ${SEINE_VERSION} started (bot: ${settings.get('BOT_NAME')})`);
  const versions = componentVersions()
    .filter(([name]) => name !== 'seine')
    .map(([name, version]) => `${name} ${version}`);
  logger.info(`Versions: ${versions.join(', ')}`);
}
