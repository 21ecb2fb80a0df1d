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

/** A TLS certificate the client could not verify (Node's codes): the store's message says which setting accepts it. */
export function isCertificateError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_CERT/.test(code);
}

/** `target` is already masked (the store's displayUri and the key); `hint` says what to do, when the store knows. */
export function storeFailure(target: string, error: unknown, secrets: ReadonlyArray<string | undefined>, hint?: string): StoreError {
  if (error instanceof StoreError) return error;
  // basic-ftp rewraps some errors as 'Error: <message>'.
  const message = (error instanceof Error ? error.message || error.name : String(error)).replace(/^Error: /, '');
  const reason = `${message.split('\n')[0]!}${hint === undefined ? '' : `; ${hint}`}`;
  // The cause keeps the library's error for debugging; it is never formatted into a log line.
  return new StoreError(target, scrubSecrets(reason, secrets), { cause: error });
}
