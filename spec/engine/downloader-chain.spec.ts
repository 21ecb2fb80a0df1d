import { describe, expect, it } from '@jest/globals';
import { measuredFetch } from '../../src/engine/downloader-chain.js';
import { DOWNLOAD_LATENCY } from '../../src/http/request-meta.js';
import { Request } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';

describe('measuredFetch', () => {
  it('sets meta.download_latency in seconds and reports the response before returning it', async () => {
    const clock = [1000, 1250];
    const seen: Array<[string, number, unknown]> = [];
    const fetch = measuredFetch(
      async (request) => new Response({ url: request.url, status: 203, request }),
      (request, response) => seen.push([request.url, response.status, request.meta[DOWNLOAD_LATENCY]]),
      () => clock.shift()!,
    );
    const request = new Request('http://example.com/');
    const response = await fetch(request);
    expect(response.status).toBe(203);
    expect(request.meta).toEqual({ download_latency: 0.25 });
    expect(seen).toEqual([['http://example.com/', 203, 0.25]]);
  });

  it('records nothing for a failed fetch', async () => {
    const seen: unknown[] = [];
    const fetch = measuredFetch(
      async () => {
        throw new Error('connection refused');
      },
      (request) => seen.push(request),
    );
    const request = new Request('http://example.com/');
    await expect(fetch(request)).rejects.toThrow('connection refused');
    expect(request.meta).toEqual({});
    expect(seen).toEqual([]);
  });
});
