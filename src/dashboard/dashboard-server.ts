/**
 * The HTTP side of one crawl's dashboard: the page and its files, the live
 * stream (`/events`, server-sent events: a snapshot on connect, then one a
 * second), the snapshot as JSON (`/api/snapshot`), the controls
 * (`POST /api/pause`, `/api/resume`, `/api/stop`) and `/metrics`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dashboardAsset } from './assets.js';
import type { DashboardSnapshot } from './crawl-watch.js';
import { DashboardListenError } from './errors.js';
import { checkBasicAuth, checkSameOrigin, openEventStream, sendJson, type BasicAuth } from './http-guard.js';
import { crawlMetrics, type CrawlMetrics } from './metrics.js';

export interface DashboardControls {
  pause(): void;
  resume(): void;
  /** The first call closes gracefully; a second cancels (what a second Ctrl-C does). */
  stop(): 'closing' | 'cancelled';
}

export interface DashboardServerOptions {
  readonly snapshot: () => DashboardSnapshot;
  readonly controls: DashboardControls;
  readonly auth: BasicAuth | null;
  readonly intervalMs?: number;
  /** Called once a second, before the snapshot goes out (the watch adds its point to the series). */
  readonly onTick?: () => void;
}

export class DashboardServer {
  readonly #options: DashboardServerOptions;
  readonly #server: Server;
  readonly #streams = new Set<(event: string, data: unknown) => void>();
  readonly #responses = new Set<ServerResponse>();
  #metrics: CrawlMetrics | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: DashboardServerOptions) {
    this.#options = options;
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { error: (error as Error).message });
        else response.end();
      });
    });
  }

  async listen(port: number, host: string): Promise<AddressInfo> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', (error: NodeJS.ErrnoException) => {
        reject(new DashboardListenError(`The dashboard could not listen on ${host}:${port}: ${error.message}; choose another DASHBOARD_PORT (0 takes any free port)`, { cause: error }));
      });
      this.#server.listen(port, host, () => resolve());
    });
    this.#timer = setInterval(() => {
      this.#options.onTick?.();
      this.broadcast();
    }, this.#options.intervalMs ?? 1000);
    this.#timer.unref();
    return this.#server.address() as AddressInfo;
  }

  /** Sends the current snapshot to every open stream. */
  broadcast(): void {
    if (this.#streams.size === 0) return;
    const snapshot = this.#options.snapshot();
    for (const send of this.#streams) send('snapshot', snapshot);
  }

  /** Sends the last snapshot, ends the streams and stops listening. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.broadcast();
    for (const response of this.#responses) response.end();
    this.#streams.clear();
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!checkBasicAuth(this.#options.auth, request, response)) return;
    const path = new URL(request.url ?? '/', 'http://dashboard').pathname;
    const method = request.method ?? 'GET';
    if (method === 'POST') {
      if (!checkSameOrigin(request, response)) return;
      request.resume();
      const controls = this.#options.controls;
      if (path === '/api/pause') controls.pause();
      else if (path === '/api/resume') controls.resume();
      else if (path === '/api/stop') return sendJson(response, 200, { stop: controls.stop(), state: this.#options.snapshot().state });
      else return sendJson(response, 404, { error: `No control at ${path}` });
      this.broadcast();
      return sendJson(response, 200, { state: this.#options.snapshot().state });
    }
    if (method !== 'GET' && method !== 'HEAD') return sendJson(response, 405, { error: `${method} is not allowed` });
    if (path === '/') return this.#sendAsset(response, 'dashboard.html');
    if (path.startsWith('/assets/')) return this.#sendAsset(response, path.slice('/assets/'.length));
    if (path === '/api/snapshot') return sendJson(response, 200, this.#options.snapshot());
    if (path === '/events') return this.#openStream(response);
    if (path === '/metrics') {
      this.#metrics ??= crawlMetrics(this.#options.snapshot);
      const text = await this.#metrics.text();
      response.writeHead(200, { 'content-type': this.#metrics.contentType });
      response.end(text);
      return;
    }
    sendJson(response, 404, { error: `Nothing at ${path}` });
  }

  #sendAsset(response: ServerResponse, name: string): void {
    const asset = dashboardAsset(name);
    if (asset === undefined) return sendJson(response, 404, { error: `No asset ${name}` });
    // The page loads nothing but this server's own files; uPlot sets inline styles on its elements.
    const policy = { 'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:" };
    response.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', ...policy });
    response.end(asset.body);
  }

  #openStream(response: ServerResponse): void {
    const send = openEventStream(response);
    this.#streams.add(send);
    this.#responses.add(response);
    response.on('close', () => {
      this.#streams.delete(send);
      this.#responses.delete(response);
    });
    send('snapshot', this.#options.snapshot());
  }
}
