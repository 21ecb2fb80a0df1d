export { RobotsCache, originOf, type DownloadFn, type RobotsCacheOptions } from './robots-cache.js';
export { RobotsRules } from './robots-rules.js';
export { RobotsTxtMiddleware, createRobots, type RobotsTxtOptions } from './robots-txt-middleware.js';
