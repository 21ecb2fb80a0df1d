export type { DownloadHandler, DownloadHandlerClass, DownloadHandlerContext } from './download-handler.js';
export { DownloadHandlers, type DownloadHandlersOptions, type RequestChosenHandler } from './handler-registry.js';
export { HttpDownloadHandler } from './http-handler.js';
export { H2DownloadHandler } from './h2-handler.js';
export { FileDownloadHandler, DataDownloadHandler } from './local-handlers.js';
import { HttpDownloadHandler } from './http-handler.js';
import { H2DownloadHandler } from './h2-handler.js';
import { DataDownloadHandler, FileDownloadHandler } from './local-handlers.js';
import type { DownloadHandlerClass } from './download-handler.js';

/** The names DOWNLOAD_HANDLERS_BASE and DOWNLOAD_HANDLERS may give (Scrapy gives import paths). */
export const DOWNLOAD_HANDLERS_BY_NAME: ReadonlyMap<string, DownloadHandlerClass> = new Map<string, DownloadHandlerClass>([
  ['HttpDownloadHandler', HttpDownloadHandler as DownloadHandlerClass],
  ['H2DownloadHandler', H2DownloadHandler as DownloadHandlerClass],
  ['FileDownloadHandler', FileDownloadHandler],
  ['DataDownloadHandler', DataDownloadHandler],
]);
