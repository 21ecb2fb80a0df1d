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
  if (typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_CERT/.test(code)) return true;
  // The AWS SDK may hand on only the text of the TLS error.
  return /self[- ]signed certificate|unable to verify the first certificate|certificate has expired|does not match certificate/i.test(messageOf(error));
}

function messageOf(error: unknown): string {
  const message = error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error) ? String((error as Error).message || (error as Error).name) : String(error);
  // What wrappers put before the message they wrap: basic-ftp's 'Error: ', the AWS SDK's for a value it did not recognise as an Error.
  return message.replace(/^AWS SDK error wrapper for /, '').replace(/^Error: /, '');
}

/** `target` is already masked (the store's displayUri and the key); `hint` says what to do, when the store knows. */
export function storeFailure(target: string, error: unknown, secrets: ReadonlyArray<string | undefined>, hint?: string): StoreError {
  if (error instanceof StoreError) return error;
  const message = messageOf(error);
  const reason = `${message.split('\n')[0]!}${hint === undefined ? '' : `; ${hint}`}`;
  // The cause keeps the library's error for debugging; it is never formatted into a log line.
  return new StoreError(target, scrubSecrets(reason, secrets), { cause: error });
}
