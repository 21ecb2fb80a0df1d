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
  let why = 'not attempted';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(Math.min(attemptTimeoutMs, left)),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) return null;
      why = `HTTP ${response.status}`;
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      why = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    }
    if (attempt < attempts) {
      const wait = Math.min(backoffMs * 2 ** (attempt - 1), deadline - Date.now());
      if (wait <= 0) break;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return why;
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
