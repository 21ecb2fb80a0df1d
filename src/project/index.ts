export * from './find-project.js';
export * from './project.js';
export * from './project-errors.js';
export * from './project-settings.js';
export * from './spider-loader.js';
export * from './templates.js';
export * from './start-project.js';
export * from './gen-spider.js';
