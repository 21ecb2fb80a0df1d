import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createNodeFetch } from '../../src/download/fetch-node.js';
import { DownloadError, UnsupportedSchemeError } from '../../src/download/download-errors.js';
import { Request } from '../../src/http/request.js';
import { fetchOptions } from './local-server.js';

const dir = mkdtempSync(join(tmpdir(), 'seine-download-'));
const fetch = createNodeFetch();

afterAll(() => {
  fetch.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('createNodeFetch: file and data URLs', () => {
  it('reads a file:// URL: status 200, the bytes, no headers', async () => {
    const path = join(dir, 'page.html');
    writeFileSync(path, '<title>local</title>');
    const url = pathToFileURL(path).href;
    const response = await fetch(new Request(url), fetchOptions());
    expect([response.url, response.status, response.text, response.headers.size, response.css('title::text').get()]).toEqual([
      url, 200, '<title>local</title>', 0, 'local',
    ]);
  });

  it('fails with a DownloadError naming the path of a missing file', async () => {
    const path = join(dir, 'missing.html');
    const url = pathToFileURL(path).href;
    const error = await fetch(new Request(url), fetchOptions()).then(() => new Error('expected a failure'), (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error.message).toBe(`Cannot read ${path} for ${url}: no such file. Check the path.`);
  });

  it('decodes a data: URL, its media type becoming Content-Type', async () => {
    const plain = await fetch(new Request('data:text/html;charset=utf-8,%3Cp%3Ehi%3C%2Fp%3E'), fetchOptions());
    const base64 = await fetch(new Request(`data:application/json;base64,${Buffer.from('{"a":1}').toString('base64')}`), fetchOptions());
    const bare = await fetch(new Request('data:,A%20brief%20note'), fetchOptions());
    expect([plain.headers.get('content-type'), plain.text, plain.css('p::text').get()]).toEqual(['text/html;charset=utf-8', '<p>hi</p>', 'hi']);
    expect([base64.headers.get('content-type'), base64.json()]).toEqual(['application/json', { a: 1 }]);
    expect([bare.headers.get('content-type'), bare.text]).toEqual(['text/plain;charset=US-ASCII', 'A brief note']);
  });

  it('fails with UnsupportedSchemeError for a scheme no handler downloads', async () => {
    const error = await fetch(new Request('ftp://127.0.0.1/file.txt'), fetchOptions()).then(() => new Error('expected a failure'), (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(UnsupportedSchemeError);
    expect([(error as UnsupportedSchemeError).code, error.message]).toEqual([
      'SEINE_UNSUPPORTED_SCHEME',
      "Unsupported URL scheme 'ftp' in ftp://127.0.0.1/file.txt: seine downloads http, https, file and data URLs.",
    ]);
  });
});
