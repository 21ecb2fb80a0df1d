/**
 * The HTTP clients bench/download-micro.ts compares. Each one GETs a URL,
 * reads the whole body into memory and returns its length. Each factory
 * imports its library itself, so a client's process loads only what that
 * client needs (and its RSS says what the library costs).
 *
 * Every pooled client keeps connections alive with at most 16 per origin
 * (seine's CONCURRENT_REQUESTS_PER_DOMAIN default is 8, the crawl benchmark
 * runs 16); none follows redirects or retries.
 */

export interface Client {
  /** GETs `url`; resolves to the body's length in bytes once it is all in memory. */
  get(url: string): Promise<number>;
  close(): Promise<void> | void;
}

export interface ClientInfo {
  /** What the table prints. */
  label: string;
  /** One line for the notes under the table. */
  note: string;
  make(): Promise<Client>;
}

/** seine's own DOWNLOAD_TIMEOUT / DOWNLOAD_MAXSIZE / DOWNLOAD_WARNSIZE defaults. */
const TIMEOUT_MS = 180_000;
const MAX_SOCKETS = 16;

/** seine's downloader as the engine calls it: seine's Request in, seine's Response out. */
async function seineClient(which: 'node' | 'got'): Promise<Client> {
  const fetch = which === 'node'
    ? (await import('../../src/download/fetch-node.js')).createNodeFetch({ maxSocketsPerHost: MAX_SOCKETS })
    : (await import('../../src/download/fetch-got.js')).createGotFetch({ maxSocketsPerHost: MAX_SOCKETS });
  const { Request } = await import('../../src/http/request.js');
  const options = { signal: new AbortController().signal, timeoutMs: TIMEOUT_MS, maxSize: 1024 * 1024 * 1024, warnSize: 32 * 1024 * 1024, proxy: null };
  // The engine hands the downloader Requests it already has: build each URL's once, outside the measurement.
  const requests = new Map<string, InstanceType<typeof Request>>();
  return {
    get: async (url) => {
      let request = requests.get(url);
      if (request === undefined) requests.set(url, (request = new Request(url)));
      return (await fetch(request, options)).body.length;
    },
    close: () => fetch.close(),
  };
}

export const CLIENTS = {
  seine: {
    label: 'seine createNodeFetch',
    note: 'src/download/fetch-node.ts as the engine calls it (HTTP/1.1, every crawl): node:http with seine\'s keep-alive AgentPool, seine\'s Response, DOWNLOAD_TIMEOUT 180 s, MAXSIZE 1 GiB, WARNSIZE 32 MiB, Accept-Encoding: gzip, deflate, br',
    make: () => seineClient('node'),
  },
  'seine-got': {
    label: 'seine createGotFetch',
    note: 'src/download/fetch-got.ts (H2DownloadHandler\'s client, HTTP/1.1 here): got 14 stream, otherwise as seine createNodeFetch',
    make: () => seineClient('got'),
  },
  got: {
    label: 'got 14 promise API',
    note: 'got(url) with seine\'s got options (no retries, redirects, HTTP errors or HTTP/2; certificates unchecked; no user-agent) plus got\'s own decompression and timeout.request 180 s, responseType buffer, http.Agent keep-alive maxSockets 16',
    async make() {
      const http = await import('node:http');
      const { default: got } = await import('got');
      // From got-options.ts, which fetch-got.ts re-exports: importing fetch-got.ts would load seine's downloader into this row's RSS.
      const { seineGotOptions } = await import('../../src/download/got-options.js');
      const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
      const client = got.extend({
        ...seineGotOptions(),
        decompress: true,
        headers: { 'user-agent': undefined },
        timeout: { request: TIMEOUT_MS },
        agent: { http: agent },
      });
      return { get: async (url) => (await client(url, { responseType: 'buffer' })).body.length, close: () => agent.destroy() };
    },
  },
  http: {
    label: 'node:http',
    note: 'http.get with an http.Agent keep-alive maxSockets 16, chunks concatenated into one Buffer; no timeout, no limits',
    async make() {
      const http = await import('node:http');
      const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
      const get = (url: string): Promise<number> => new Promise((resolve, reject) => {
        http.get(url, { agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve(Buffer.concat(chunks).length));
          res.on('error', reject);
        }).on('error', reject);
      });
      return { get, close: () => agent.destroy() };
    },
  },
  undici: {
    label: 'undici.request',
    note: 'undici.request(url, { dispatcher }) with an undici Agent of connections 16 (installed into bench/.peers/undici/), body.arrayBuffer(); undici\'s default headers/body timeouts (300 s)',
    async make() {
      const { importUndici } = await import('./undici-peer.js');
      const undici = await importUndici();
      const dispatcher = new undici.Agent({ connections: MAX_SOCKETS });
      return {
        get: async (url) => Buffer.from(await (await undici.request(url, { dispatcher })).body.arrayBuffer()).length,
        close: () => dispatcher.close(),
      };
    },
  },
  fetch: {
    label: 'global fetch',
    note: `Node's global fetch, i.e. the undici bundled into Node (${process.versions.undici ?? '?'} here) with its default global dispatcher (no connection limit), response.arrayBuffer()`,
    async make() {
      return { get: async (url) => Buffer.from(await (await fetch(url)).arrayBuffer()).length, close: () => undefined };
    },
  },
} satisfies Record<string, ClientInfo>;

export type ClientName = keyof typeof CLIENTS;
export const CLIENT_NAMES = Object.keys(CLIENTS) as ClientName[];
