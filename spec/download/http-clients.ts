/**
 * Both HTTP clients behind the http/https handlers: createNodeFetch
 * (HTTP/1.1, every crawl) and createGotFetch (H2DownloadHandler's). The
 * downloader's specs run against each, so that the two behave alike.
 */
import { afterEach, beforeAll, describe } from '@jest/globals';
import { createGotFetch } from '../../src/download/fetch-got.js';
import { createNodeFetch } from '../../src/download/fetch-node.js';
import type { HttpFetch, HttpFetchOptions } from '../../src/download/fetch-options.js';
import type { LocalServer } from './local-server.js';

export type HttpFetchFactory = (options?: HttpFetchOptions) => HttpFetch;

export const HTTP_CLIENTS: Array<[string, HttpFetchFactory]> = [
  ['createNodeFetch', createNodeFetch],
  ['createGotFetch', createGotFetch],
];

/** The client a test downloads with and the local server it downloads from (the test starts it). */
export class ClientAndServer {
  server: LocalServer | null = null;
  #create: HttpFetchFactory = createNodeFetch;
  fetch: HttpFetch = this.#create();

  /** For a test that needs other options: a client of the same kind with them, in place of this one. */
  replaceClient(options?: HttpFetchOptions): void {
    this.fetch.close();
    this.fetch = this.#create(options);
  }

  /** From now on, clients made by `create`. */
  useClients(create: HttpFetchFactory): void {
    this.#create = create;
    this.replaceClient();
  }

  /** After a test: a fresh client, so that no option or kept-alive socket outlives its test, and no server. */
  async reset(): Promise<void> {
    this.replaceClient();
    await this.server?.close();
    this.server = null;
  }
}

/** `tests`, once against each of HTTP_CLIENTS (a describe block each), every test with a fresh client and its own server. */
export function describeEachClient(tests: (local: ClientAndServer) => void): void {
  const local = new ClientAndServer();
  afterEach(() => local.reset());
  describe.each(HTTP_CLIENTS)('%s', (_name, create) => {
    beforeAll(() => local.useClients(create));
    tests(local);
  });
}
