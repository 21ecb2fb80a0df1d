import {
  ConnectionLostError, ConnectionRefusedError, DnsLookupError, DownloadError, InvalidResponseError, TunnelError,
} from './download-errors.js';
import { ProxyTunnelFailure } from './proxy-agent.js';

/** What the client (response-receiver.ts) knew about the transfer when it failed. */
export interface FailureContext {
  url: string;
  responseReceived: boolean;
  received: number;
  expected: number | null;
}

interface NodeErrorFields {
  code?: unknown;
  hostname?: unknown;
  address?: unknown;
  port?: unknown;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_NONAME', 'EAI_FAIL']);
const LOST_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_HTTP_CONTENT_LENGTH_MISMATCH']);

/**
 * Node's errors (fetch-node.ts) and got's RequestError, which wraps the Node
 * error as `cause` (fetch-got.ts), into seine's categories. The cause kept is
 * the Node error, never got's class.
 */
export function mapDownloadError(error: unknown, context: FailureContext): DownloadError {
  const root = rootCause(error);
  const { url } = context;
  if (root instanceof DownloadError) return root;
  if (root instanceof ProxyTunnelFailure) return new TunnelError(url, root.proxy, root.status, root.reason);
  const fields = root as NodeErrorFields;
  const code = typeof fields.code === 'string' ? fields.code : codeOf(error);
  const reason = root.message;
  const cause = root;
  if (code === 'ECONNREFUSED') {
    const address = typeof fields.address === 'string' && fields.port !== undefined ? `${fields.address}:${String(fields.port)}` : new URL(url).host;
    return new ConnectionRefusedError(url, address, { cause });
  }
  if (code !== undefined && DNS_CODES.has(code)) {
    const host = typeof fields.hostname === 'string' ? fields.hostname : new URL(url).hostname;
    return new DnsLookupError(url, host, { cause });
  }
  if (code !== undefined && LOST_CODES.has(code)) {
    return new ConnectionLostError(url, { ...context, reason }, { cause });
  }
  if (code === 'ETIMEDOUT') {
    return new DownloadError(url, `TCP connection timed out while getting ${url} (${reason}): the host did not answer; check the address or try later.`, { cause });
  }
  if (code?.startsWith('HPE_') === true) {
    return new InvalidResponseError(url, code, reason, { cause });
  }
  if (code !== undefined && (code === 'EPROTO' || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS'))) {
    return new DownloadError(url, `TLS handshake failed for ${url} (${reason}): the server may not speak HTTPS on that port.`, { cause });
  }
  return new DownloadError(url, `Error downloading ${url}: ${reason}${code === undefined ? '' : ` (${code})`}.`, { cause });
}

/**
 * The innermost error with a message in a `cause` chain. got's own classes
 * (they carry `options`) and the plain objects it sometimes wraps become a
 * plain Error with the same message and code.
 */
function rootCause(error: unknown): Error {
  // Duck-typed: Node's errors may come from another realm (jest's vm modules), where `instanceof Error` is false.
  let found: unknown = error;
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    if (typeof (current as { message?: unknown }).message === 'string' && (current as { message: string }).message !== '') found = current;
    current = (current as { cause?: unknown }).cause;
  }
  if (typeof found === 'object' && found !== null && typeof (found as Error).name === 'string' && typeof (found as Error).stack === 'string' && !('options' in found)) return found as Error;
  const message = typeof (found as { message?: unknown } | null)?.message === 'string' ? (found as { message: string }).message : String(found);
  const plain = new Error(message);
  const code = codeOf(found) ?? codeOf(error);
  if (code !== undefined) Object.assign(plain, { code });
  return plain;
}
function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
