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

export function addVersionUrl(target: DeployTarget): string {
  if (target.url === undefined) {
    throw new DeployError(`seine.cfg's [${target.name === 'default' ? 'deploy' : `deploy:${target.name}`}] has no url: add url = http://localhost:6800/ (where \`seine serve\` listens)`);
  }
  return new URL('addversion.json', target.url).href;
}

export async function uploadVersion(target: DeployTarget, project: string, version: string, tarball: Buffer, timeoutMs = 15 * 60_000): Promise<UploadAnswer> {
  const url = addVersionUrl(target);
  const form = new FormData();
  form.set('project', project);
  form.set('version', version);
  form.set('egg', new Blob([tarball], { type: 'application/gzip' }), `${project}-${version}.tar.gz`);
  const headers: Record<string, string> = {};
  if (target.username !== undefined) {
    headers['authorization'] = `Basic ${Buffer.from(`${target.username}:${target.password ?? ''}`).toString('base64')}`;
  }
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
    return target.username === undefined
      ? `the service asks for a password (401): set username and password in seine.cfg's [${target.name === 'default' ? 'deploy' : `deploy:${target.name}`}]`
      : `the service refused username '${target.username}' and its password (401): check username and password in seine.cfg`;
  }
  if (answer.json !== null && answer.json['status'] === 'ok' && answer.status < 400) return null;
  const message = answer.json !== null && typeof answer.json['message'] === 'string' ? answer.json['message'] : answer.body.trim().split('\n')[0] ?? '';
  return `the service answered ${answer.status}: ${message === '' ? '(no message)' : message}`;
}
