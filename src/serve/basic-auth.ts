/** HTTP basic auth over everything the service serves, as scrapyd's `username`/`password`. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

function digest(text: string): Buffer {
  // Hash both sides so the comparison takes the same time whatever the lengths.
  return createHash('sha256').update(text).digest();
}

export function checkBasicAuth(request: IncomingMessage, username: string, password: string): boolean {
  if (username === '' || password === '') return true;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers.authorization ?? '');
  if (match === null) return false;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const userOk = timingSafeEqual(digest(decoded.slice(0, colon)), digest(username));
  const passwordOk = timingSafeEqual(digest(decoded.slice(colon + 1)), digest(password));
  return userOk && passwordOk;
}

export const AUTH_CHALLENGE = 'Basic realm="seine serve", charset="UTF-8"';
