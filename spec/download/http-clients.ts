/**
 * Both HTTP clients behind the http/https handlers: createNodeFetch
 * (HTTP/1.1, every crawl) and createGotFetch (H2DownloadHandler's). The
 * downloader's specs run against each, so that the two behave alike.
 */
import { createGotFetch } from '../../src/download/fetch-got.js';
import { createNodeFetch } from '../../src/download/fetch-node.js';
import type { HttpFetch, HttpFetchOptions } from '../../src/download/fetch-options.js';

export type HttpFetchFactory = (options?: HttpFetchOptions) => HttpFetch;

export const HTTP_CLIENTS: Array<[string, HttpFetchFactory]> = [
  ['createNodeFetch', createNodeFetch],
  ['createGotFetch', createGotFetch],
];
