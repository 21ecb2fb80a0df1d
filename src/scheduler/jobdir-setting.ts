import type { Settings } from '../settings/index.js';

/** JOBDIR: the folder a crawl keeps its state in, or null (the default: nothing is kept). An empty string counts as unset, as in Scrapy. */
export function jobdirSetting(settings: Settings): string | null {
  const value = settings.get('JOBDIR');
  return typeof value === 'string' && value !== '' ? value : null;
}
