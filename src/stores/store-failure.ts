/**
 * A client library's error as a StoreError that is safe to log: whatever
 * the library put in its message (an FTP server's reply, an SDK error, a
 * URL it echoes) is scrubbed of the store's secrets before seine shows it.
 */
import { maskUrlCredentials } from '../url-credentials.js';
import { StoreError } from './store-error.js';

export function scrubSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let scrubbed = maskUrlCredentials(text);
  // Longest first, so a secret containing another is hidden whole.
  const known = secrets.filter((secret): secret is string => secret !== undefined && secret.length >= 3).sort((a, b) => b.length - a.length);
  for (const secret of known) scrubbed = scrubbed.split(secret).join('***');
  return scrubbed;
}

/** `target` is already masked (the store's displayUri and the key). */
export function storeFailure(target: string, error: unknown, secrets: ReadonlyArray<string | undefined>): StoreError {
  if (error instanceof StoreError) return error;
  const message = error instanceof Error ? error.message || error.name : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  // Node's network errors say ECONNREFUSED in their code only when the message is terse.
  const reason = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  // The cause keeps the library's error for debugging; it is never formatted into a log line.
  return new StoreError(target, scrubSecrets(reason.split('\n')[0]!, secrets), { cause: error });
}
