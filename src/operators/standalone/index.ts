export { dedupe, type DedupeOptions } from './dedupe.js';
export { robots, type RobotsOptions } from './robots.js';
export { downloadWith, type DownloadWithOptions } from './download-with.js';
export type { FetchSettings } from './fetch-defaults.js';
