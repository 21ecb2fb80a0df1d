/**
 * The pages of `seine serve` (mounted by src/serve/ as its `pages`): `/`
 * lists every job live (server-sent events at `/dashboard/events`: the list
 * on connect and at each change), and `/jobs/<id>/` is a job's page: while
 * the job runs with its own dashboard server (JobSummary.dashboard_port), the
 * same live page as `seine crawl --dashboard`, its stream and controls
 * forwarded to that server on loopback; otherwise the job's summary.
 *
 * The job types are written out here, not imported from src/serve/ (a layer
 * above this one); serve's JobsView fits them.
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { dashboardAsset } from './assets.js';
import { checkSameOrigin, openEventStream } from './http-guard.js';
import { jobSummaryPage } from './job-summary-page.js';

export interface ServiceJob {
  id: string;
  project: string;
  spider: string;
  version: string | null;
  state: string;
  start_time: string | null;
  end_time: string | null;
  log_url: string | null;
  items_url: string | null;
  items: number | null;
  errors: number | null;
  finish_reason: string | null;
  dashboard_port: number | null;
}

export interface ServiceJobs {
  list(): ServiceJob[];
  get(id: string): ServiceJob | undefined;
  onChange(listener: (job: ServiceJob) => void): () => void;
}

export interface ServicePages {
  /** Answers the pages' paths; false for any other path (the service answers it). */
  handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean>;
}

/** How often the list goes out even without a change (durations move). */
const LIST_INTERVAL_MS = 5000;
/** Changes in a burst (a job's state and its stats) go out as one list. */
const CHANGE_DELAY_MS = 200;
/** What a job's page may ask of the job's own dashboard server. */
const FORWARDED = /^(events|api\/snapshot|api\/pause|api\/resume|api\/stop|metrics)$/;

export function serviceDashboard(jobs: ServiceJobs): ServicePages {
  const sendAsset = (response: ServerResponse, name: string, head: boolean): boolean => {
    const asset = dashboardAsset(name);
    if (asset === undefined) return false;
    response.writeHead(200, {
      'content-type': asset.type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
    });
    response.end(head ? undefined : asset.body);
    return true;
  };

  const streamList = (request: IncomingMessage, response: ServerResponse): void => {
    const send = openEventStream(response);
    const sendList = (): void => send('jobs', { now: new Date().toISOString(), jobs: jobs.list() });
    let pending: NodeJS.Timeout | undefined;
    const unsubscribe = jobs.onChange(() => {
      pending ??= setTimeout(() => {
        pending = undefined;
        sendList();
      }, CHANGE_DELAY_MS);
    });
    const timer = setInterval(sendList, LIST_INTERVAL_MS);
    request.socket.on('close', () => {
      unsubscribe();
      clearInterval(timer);
      clearTimeout(pending);
    });
    sendList();
  };

  return {
    async handle(request, response, url) {
      const path = url.pathname;
      const method = request.method ?? 'GET';
      const head = method === 'HEAD';
      if (path === '/' && (method === 'GET' || head)) return sendAsset(response, 'service.html', head);
      if (path.startsWith('/dashboard/assets/') && (method === 'GET' || head)) return sendAsset(response, path.slice('/dashboard/assets/'.length), head);
      if (path === '/dashboard/events' && method === 'GET') {
        streamList(request, response);
        return true;
      }
      const match = /^\/jobs\/([^/]+)(\/(.*))?$/.exec(path);
      if (match === null) return false;
      const job = jobs.get(decodeURIComponent(match[1]!));
      if (job === undefined) return false;
      const rest = match[3];
      if (rest === undefined) {
        // The page's relative URLs (assets/…, events, api/…) resolve under the job's folder.
        response.writeHead(302, { location: `/jobs/${encodeURIComponent(job.id)}/` });
        response.end();
        return true;
      }
      const live = job.state === 'running' && job.dashboard_port !== null;
      if (rest === '' && (method === 'GET' || head)) {
        if (live) return sendAsset(response, 'dashboard.html', head);
        const html = jobSummaryPage(job);
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'self'" });
        response.end(head ? undefined : html);
        return true;
      }
      if (rest.startsWith('assets/') && (method === 'GET' || head)) return sendAsset(response, rest.slice('assets/'.length), head);
      if (!FORWARDED.test(rest)) return false;
      if (method === 'POST' && !checkSameOrigin(request, response)) return true;
      if (!live) {
        response.writeHead(409, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify({ error: `Job ${job.id} is ${job.state} and has no live dashboard` }));
        return true;
      }
      forward(request, response, job.dashboard_port!, `/${rest}`);
      return true;
    },
  };
}

/** Passes one request on to a job's dashboard server on loopback, streaming the answer back (the events too). */
function forward(request: IncomingMessage, response: ServerResponse, port: number, path: string): void {
  const upstream = httpRequest(
    { host: '127.0.0.1', port, path, method: request.method, headers: { 'x-seine-dashboard': '1', accept: request.headers.accept ?? '*/*' } },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, {
        'content-type': answer.headers['content-type'] ?? 'text/plain',
        'cache-control': 'no-store',
      });
      answer.pipe(response);
    },
  );
  upstream.on('error', () => {
    if (!response.headersSent) {
      response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      response.end("The job's dashboard did not answer (the job may just have ended): reload the page\n");
    } else {
      response.end();
    }
  });
  response.on('close', () => upstream.destroy());
  request.resume();
  upstream.end();
}
