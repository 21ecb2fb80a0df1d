/**
 * The network side of a rendered page, for the WARC archive
 * (src/warc/network-exchange.ts): the main document's request as the
 * browser sent it and its response as received, read from Playwright only
 * when WARC_ENABLED asks for it.
 */
import type { Response as PageResponse } from 'playwright-core';
import type { NetworkExchange } from '../warc/network-exchange.js';

/** `networkBody`: the body already read (a page that is not HTML), or null to ask the browser for it. */
export async function pageExchange(pageResponse: PageResponse, { rendered, networkBody }: { rendered: boolean; networkBody: Buffer | null }): Promise<NetworkExchange> {
  const request = pageResponse.request();
  const [headers, requestHeaders, body, server] = await Promise.all([
    pageResponse.headersArray(),
    request.headersArray(),
    // A response the browser keeps no body for (a redirect, one evicted from its cache) has none to give.
    networkBody ?? pageResponse.body().catch(() => null),
    pageResponse.serverAddr().catch(() => null),
  ]);
  return {
    url: pageResponse.url(),
    method: request.method(),
    requestHeaders: requestHeaders.map(({ name, value }) => [name, value] as const),
    status: pageResponse.status(),
    statusText: pageResponse.statusText(),
    headers: headers.map(({ name, value }) => [name, value] as const),
    body,
    ip: server?.ipAddress ?? null,
    rendered,
  };
}
