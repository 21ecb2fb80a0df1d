/**
 * `createGotFetch` as `seine/operators` exports it: got is imported by the
 * first call to the factory (src/download/got-fetch-lazy.ts), and the client
 * behaves as fetch-got.ts's.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createGotFetch } from '../../src/operators/index.js';
import { Request } from '../../src/http/request.js';
import { fetchOptions, startHttpServer, type LocalServer } from './local-server.js';

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("seine/operators' createGotFetch", () => {
  it('downloads with got once loaded: the first call waits for the import, the next ones go straight through', async () => {
    server = await startHttpServer((req, res) => res.end(`page ${req.url}`));
    const fetch = createGotFetch();
    try {
      const [first, second] = await Promise.all([fetch(new Request(`${server.url}/a`), fetchOptions()), fetch(new Request(`${server.url}/b`), fetchOptions())]);
      const third = await fetch(new Request(`${server.url}/c`), fetchOptions());
      expect([first, second, third].map((response) => [response.status, response.body.toString(), response.protocol])).toEqual([
        [200, 'page /a', 'HTTP/1.1'],
        [200, 'page /b', 'HTTP/1.1'],
        [200, 'page /c', 'HTTP/1.1'],
      ]);
    } finally {
      fetch.close();
    }
  });
});
