/**
 * What every dashboard request passes first: HTTP basic auth when a
 * username and password are set, and, for the POST controls, a guard
 * against cross-site requests. A page on another site can make a browser
 * send a form POST (with the user's saved basic-auth credentials), but it
 * cannot add a custom header without a CORS preflight, which this server
 * never grants; and a browser names the page's origin in `Origin`.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CONTROL_HEADER = 'x-seine-dashboard';

export interface BasicAuth {
  readonly username: string;
  readonly password: string;
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** True when the request may go on; otherwise it has been answered with 401. */
export function checkBasicAuth(auth: BasicAuth | null, request: IncomingMessage, response: ServerResponse, realm = 'seine dashboard'): boolean {
  if (auth === null) return true;
  const header = request.headers.authorization ?? '';
  const match = /^Basic\s+(\S+)$/i.exec(header);
  const given = match === null ? '' : Buffer.from(match[1]!, 'base64').toString('utf8');
  // Compared as digests, so the time taken says nothing about how much of the secret matched.
  if (match !== null && timingSafeEqual(digest(given), digest(`${auth.username}:${auth.password}`))) return true;
  response.writeHead(401, { 'www-authenticate': `Basic realm="${realm}", charset="UTF-8"`, 'content-type': 'text/plain; charset=utf-8' });
  response.end('Unauthorized\n');
  return false;
}

/** True for a control request a page of this server made; otherwise answered with 403. */
export function checkSameOrigin(request: IncomingMessage, response: ServerResponse): boolean {
  const origin = request.headers.origin;
  const host = request.headers.host;
  const sameOrigin = origin === undefined || (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`));
  if (request.headers[CONTROL_HEADER] === '1' && sameOrigin) return true;
  response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(`Forbidden: controls need the header ${CONTROL_HEADER}: 1, from a page of this server\n`);
  return false;
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

/** Starts a server-sent events stream (a plain text/event-stream response). */
export function openEventStream(response: ServerResponse): (event: string, data: unknown) => void {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
  response.write(': seine\n\n');
  return (event, data) => {
    response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
}
