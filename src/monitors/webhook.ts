import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * Posts a monitor report to MONITORS_WEBHOOK_URL (Slack's incoming-webhook
 * JSON). Three attempts, 1 s then 2 s apart, each given at most 3 s, and
 * never more than 10 s in all: an alert must not hold a finished crawl's
 * exit for long. Resolves with null when delivered, else why not.
 */
export interface WebhookOptions {
  attempts?: number;
  /** Wait before the second attempt; doubled before each next one. */
  backoffMs?: number;
  attemptTimeoutMs?: number;
  totalMs?: number;
}

export async function postWebhook(url: string, body: unknown, options: WebhookOptions = {}): Promise<string | null> {
  const { attempts = 3, backoffMs = 1000, attemptTimeoutMs = 3000, totalMs = 10_000 } = options;
  const deadline = Date.now() + totalMs;
  const payload = Buffer.from(JSON.stringify(body));
  let why = 'not attempted';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    why = await postOnce(url, payload, Math.min(attemptTimeoutMs, left));
    if (why === '') return null;
    if (attempt < attempts) {
      const wait = Math.min(backoffMs * 2 ** (attempt - 1), deadline - Date.now());
      if (wait <= 0) break;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return why;
}

/**
 * One POST; '' when the server answered 2xx, else why not. node:http with
 * no agent (a connection per attempt, closed after): fetch's pooled
 * keep-alive socket held a finished crawl's process open ~1.5 s longer.
 */
function postOnce(url: string, payload: Buffer, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (why: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(why);
    };
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = send(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': payload.length } }, (res) => {
      res.resume();
      res.on('end', () => done((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300 ? '' : `HTTP ${res.statusCode}`));
      res.on('error', (error) => done(error.message));
    });
    const timer = setTimeout(() => {
      done(`no answer within ${Math.round(timeoutMs / 100) / 10} s`);
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    req.end(payload);
  });
}

/** The URL as a log line may show it: a Slack webhook's path is its secret. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return '(an invalid URL)';
  }
}
