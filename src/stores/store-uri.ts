/**
 * The parts of a remote store's URI (`ftp://user:pass@host:21/dir`,
 * `s3://key:secret@bucket/prefix`), with the user and password decoded, and
 * the forms of it that may be shown.
 */
import { StoreError } from './store-error.js';

export interface StoreUri {
  readonly scheme: string;
  /** The host, or an S3 bucket. */
  readonly host: string;
  readonly port: number | undefined;
  readonly user: string | undefined;
  readonly password: string | undefined;
  /** The path without its trailing '/', '' for the root; starts with '/' otherwise. */
  readonly path: string;
}

/** A URI that could not be read, shown without its user part at all (an S3 access key id is one). */
export function hideUserinfo(uri: string): string {
  return uri.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

export function parseStoreUri(uri: string): StoreUri {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new StoreError(hideUserinfo(uri), `not a valid URI; write it as ${uri.split(':')[0]}://[user:password@]host[:port]/path (percent-encode '/', '@' and ':' in a password)`);
  }
  if (url.hostname === '') throw new StoreError(hideUserinfo(uri), 'the URI names no host (or bucket)');
  return {
    scheme: url.protocol.slice(0, -1).toLowerCase(),
    host: url.hostname,
    port: url.port === '' ? undefined : Number(url.port),
    user: url.username === '' ? undefined : decodeURIComponent(url.username),
    password: url.password === '' ? undefined : decodeURIComponent(url.password),
    path: decodeURIComponent(url.pathname).replace(/\/+$/, ''),
  };
}

/** `scheme://user:***@host:port/path`: the password masked, the rest as written. */
export function maskedStoreUri(parts: StoreUri): string {
  const user = parts.user === undefined ? '' : `${encodeURIComponent(parts.user)}${parts.password === undefined ? '' : ':***'}@`;
  const port = parts.port === undefined ? '' : `:${parts.port}`;
  return `${parts.scheme}://${user}${parts.host}${port}${parts.path}`;
}

/** The '/'-joined path of `key` under a store's root path ('' or '/dir'). */
export function pathUnder(root: string, key: string): string {
  return `${root}/${key.replace(/^\/+/, '')}`;
}
