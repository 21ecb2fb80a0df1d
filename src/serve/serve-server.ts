/**
 * The service's HTTP server: basic auth in front of everything, then
 * scrapyd's API (`/<name>.json`), the jobs' logs and items, and the pages.
 * API answers are scrapyd's: JSON with `status` and `node_name`, errors as
 * `{"status": "error", "message": …}` with HTTP 200; a wrong method is an
 * error answer too (scrapyd's Twisted resources answer it the same way).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AUTH_CHALLENGE, checkBasicAuth } from './basic-auth.js';
import { ApiError, ENDPOINTS, NODE_NAME, type ApiContext } from './scrapyd-api.js';
import { BodyTooLargeError, readParams } from './request-params.js';
import { resolveJobFile, sendJobFile } from './static-files.js';

export interface ServePages {
  /** Answers `/` and `/jobs/<id>` (and the pages' assets); returns false for a path it does not serve. */
  handle(request: IncomingMessage, response: ServerResponse, url: URL): boolean | Promise<boolean>;
}

export interface ServeServerOptions extends ApiContext {
  username: string;
  password: string;
  /** The pages at `/` and `/jobs/…` (the dashboard's serviceDashboard). */
  pages: ServePages;
}

function sendJson(response: ServerResponse, status: number, body: Record<string, unknown>, methods?: string): void {
  const content = `${JSON.stringify({ node_name: NODE_NAME, ...body })}\n`;
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(content),
    'Access-Control-Allow-Origin': '*',
    ...(methods === undefined ? {} : { 'Access-Control-Allow-Methods': methods }),
    'Access-Control-Allow-Headers': 'X-Requested-With',
  });
  response.end(content);
}

function sendText(response: ServerResponse, status: number, type: string, text: string): void {
  response.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(text), 'X-Content-Type-Options': 'nosniff' });
  response.end(text);
}

async function answerApi(name: string, request: IncomingMessage, response: ServerResponse, url: URL, context: ApiContext): Promise<void> {
  const endpoint = ENDPOINTS[name]!;
  const methods = `OPTIONS, HEAD, ${endpoint.method}`;
  const method = request.method === 'HEAD' && endpoint.method === 'GET' ? 'GET' : request.method;
  if (method === 'OPTIONS') {
    response.writeHead(204, { Allow: methods, 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': methods });
    response.end();
    return;
  }
  if (method !== endpoint.method) {
    request.resume();
    sendJson(response, 200, { status: 'error', message: `UnsupportedMethod: expected one of ${methods}` }, methods);
    return;
  }
  try {
    const params = await readParams(request, url);
    const data = await endpoint.handle(params, context);
    sendJson(response, 200, { status: 'ok', ...data }, methods);
  } catch (error) {
    if (error instanceof ApiError) sendJson(response, 200, { status: 'error', message: error.message }, methods);
    else if (error instanceof BodyTooLargeError) sendJson(response, 413, { status: 'error', message: error.message }, methods);
    else sendJson(response, 200, { status: 'error', message: `${(error as Error).name}: ${(error as Error).message}` }, methods);
  }
}

export function createServeServer(options: ServeServerOptions): Server {
  const { pages } = options;
  return createServer((request, response) => {
    void (async () => {
      if (!checkBasicAuth(request, options.username, options.password)) {
        request.resume();
        response.writeHead(401, { 'WWW-Authenticate': AUTH_CHALLENGE, 'Content-Type': 'text/plain; charset=utf-8' });
        response.end('Unauthorized\n');
        return;
      }
      const rawPath = (request.url ?? '/').split('?')[0]!;
      let url: URL;
      try {
        url = new URL(request.url ?? '/', 'http://seine.invalid');
      } catch {
        return sendText(response, 400, 'text/plain; charset=utf-8', 'Bad request\n');
      }
      const api = /^\/([a-z]+\.json)$/.exec(rawPath);
      if (api !== null && ENDPOINTS[api[1]!] !== undefined) return answerApi(api[1]!, request, response, url, options);
      if (/^\/(logs|items)\//.test(rawPath)) {
        if (request.method !== 'GET' && request.method !== 'HEAD') return sendText(response, 405, 'text/plain; charset=utf-8', 'Method not allowed\n');
        const answer = resolveJobFile(options.dir, rawPath);
        if (answer.status === 200) return sendJobFile(answer, response, request.method === 'HEAD');
        return sendText(response, answer.status, 'text/plain; charset=utf-8', answer.status === 400 ? 'Bad request\n' : 'Not found\n');
      }
      if (await pages.handle(request, response, url)) return;
      if (rawPath.endsWith('.json')) return sendJson(response, 404, { status: 'error', message: `no such endpoint: ${rawPath}` });
      sendText(response, 404, 'text/plain; charset=utf-8', 'Not found\n');
    })().catch((error: unknown) => {
      if (!response.headersSent) sendText(response, 500, 'text/plain; charset=utf-8', `Internal error: ${(error as Error).message}\n`);
      else response.destroy();
    });
  });
}
