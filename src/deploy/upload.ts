/**
 * The upload of a packed project to `<url>addversion.json`: a multipart form
 * with `project`, `version` and the tarball as `egg`, the fields scrapyd's
 * API takes, with HTTP basic auth when the target has a username. Node's own
 * fetch, FormData and Blob: no HTTP client of seine's is needed here.
 */
import { DeployError } from './deploy-error.js';
import type { DeployTarget } from './deploy-targets.js';

export interface UploadAnswer {
  /** The HTTP status. */
  readonly status: number;
  /** The body as the server sent it. */
  readonly body: string;
  /** The body as JSON, when it is. */
  readonly json: Record<string, unknown> | null;
}

function section(target: DeployTarget): string {
  return target.name === 'default' ? '[deploy]' : `[deploy:${target.name}]`;
}

/** `<url>addversion.json`, without any user:password the url holds (fetch refuses those; they go in the header). */
export function addVersionUrl(target: DeployTarget): string {
  if (target.url === undefined) {
    throw new DeployError(`seine.cfg's ${section(target)} has no url: add url = http://localhost:6800/ (where \`seine serve\` listens)`);
  }
  let url: URL;
  try {
    url = new URL('addversion.json', target.url);
  } catch {
    throw new DeployError(`seine.cfg's ${section(target)} has url = ${target.url}, which is not a URL: write it as http://host:6800/`);
  }
  url.username = '';
  url.password = '';
  return url.href;
}

/** The credentials: username and password of the target, else those written in its url. */
function credentials(target: DeployTarget): { username: string; password: string } | null {
  if (target.username !== undefined) return { username: target.username, password: target.password ?? '' };
  const url = target.url === undefined ? null : URL.canParse(target.url) ? new URL(target.url) : null;
  if (url === null || url.username === '') return null;
  return { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
}

export async function uploadVersion(target: DeployTarget, project: string, version: string, tarball: Buffer, timeoutMs = 15 * 60_000): Promise<UploadAnswer> {
  const url = addVersionUrl(target);
  const form = new FormData();
  form.set('project', project);
  form.set('version', version);
  form.set('egg', new Blob([tarball], { type: 'application/gzip' }), `${project}-${version}.tar.gz`);
  const headers: Record<string, string> = {};
  const auth = credentials(target);
  if (auth !== null) headers['authorization'] = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
  let response: Response;
  try {
    // The service installs the version's dependencies before it answers: allow minutes.
    response = await fetch(url, { method: 'POST', body: form, headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new DeployError(`cannot reach ${url} (${why}): is \`seine serve\` running there?`, { cause: error });
  }
  const body = await response.text();
  let json: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed === 'object' && parsed !== null) json = parsed as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { status: response.status, body, json };
}

/** The one line a failed answer deserves, or null when the deploy succeeded. */
export function failureOf(answer: UploadAnswer, target: DeployTarget): string | null {
  if (answer.status === 401) {
    const auth = credentials(target);
    return auth === null
      ? `the service asks for a password (401): set username and password in seine.cfg's ${section(target)}`
      : `the service refused username '${auth.username}' and its password (401): check username and password in seine.cfg`;
  }
  if (answer.json !== null && answer.json['status'] === 'ok' && answer.status < 400) return null;
  const message = answer.json !== null && typeof answer.json['message'] === 'string' ? answer.json['message'] : answer.body.trim().split('\n')[0] ?? '';
  return `the service answered ${answer.status}: ${message === '' ? '(no message)' : message}`;
}
