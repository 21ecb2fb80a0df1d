import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Route } from '../helpers/site-server.js';

/**
 * A site that pushes back, for the sessions specs: the first request without
 * a `sid` cookie is given one; the server counts requests per sid; a sid
 * that has made more than `captchaAfter` requests gets a captcha page
 * (status 200, a `.captcha` element); sids `forbidden` picks get 403 (from their first request on).
 */
export interface SessionSite {
  route: Route;
  /** Requests per sid (the one that was given the cookie included). */
  readonly perSid: Map<string, number>;
  /** sids handed out, in order. */
  readonly given: string[];
}

export function sessionSite(options: { captchaAfter?: number; forbidden?: (sid: number) => boolean } = {}): SessionSite {
  const perSid = new Map<string, number>();
  const given: string[] = [];
  const route: Route = (req: IncomingMessage, res: ServerResponse) => {
    let sid = /(?:^|;\s*)sid=(\d+)/.exec(req.headers.cookie ?? '')?.[1];
    const headers: Record<string, string> = { 'Content-Type': 'text/html' };
    if (sid === undefined) {
      sid = String(given.length + 1);
      given.push(sid);
      headers['Set-Cookie'] = `sid=${sid}; Path=/`;
    }
    const count = (perSid.get(sid) ?? 0) + 1;
    perSid.set(sid, count);
    if (options.forbidden?.(Number(sid)) === true) {
      res.writeHead(403, headers).end('<html><body>Forbidden</body></html>');
    } else if (options.captchaAfter !== undefined && count > options.captchaAfter) {
      res.writeHead(200, headers).end('<html><body><h1>Are you human?</h1><div class="captcha">solve me</div></body></html>');
    } else {
      res.writeHead(200, headers).end(`<html><body><h1>${req.url}</h1><p class="sid">${sid}</p></body></html>`);
    }
  };
  return { route, perSid, given };
}
