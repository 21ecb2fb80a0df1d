/**
 * A real S3-compatible server for a test: s3rver (npm, in Node) on a free
 * loopback port, its buckets in a temporary folder, stopped after.
 *
 * s3rver checks that the access key id is one it knows (S3RVER) but does
 * not verify SigV4 signatures: a wrong secret is accepted, so a refused
 * credential is tested with an unknown key id.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const requireHere = createRequire(import.meta.url);

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  readonly httpServer: { closeAllConnections(): void };
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export const S3_KEY_ID = 'S3RVER';
export const S3_SECRET = 'S3RVER';

export interface S3TestServer {
  /** http://127.0.0.1:<port> (https:// with tls): the value of AWS_ENDPOINT_URL. */
  readonly endpoint: string;
  readonly bucket: string;
  /** Where s3rver keeps the bucket's objects (`<root>/<bucket>/<key>._S3rver_object`). */
  readonly root: string;
  /** `s3://bucket/prefix`, with `key:secret@` when credentials are given. */
  uri(prefix?: string, credentials?: { key: string; secret: string }): string;
  /** The settings a store needs to reach this server (credentials included). */
  settings(extra?: Record<string, unknown>): { get(name: string): unknown };
  /** Stops the server, cutting the connections in flight: new ones are refused. */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** With `tls`, s3rver serves HTTPS with a self-signed certificate made at start (openssl). */
export async function startS3Server(options: { bucket?: string; port?: number; tls?: boolean } = {}): Promise<S3TestServer> {
  const S3rver = requireHere('s3rver') as S3rverClass;
  const bucket = options.bucket ?? 'seine-test';
  const root = mkdtempSync(join(tmpdir(), 'seine-s3-'));
  let tls: { key: Buffer; cert: Buffer } | undefined;
  if (options.tls) {
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-days', '1', '-keyout', join(root, 'key.pem'), '-out', join(root, 'cert.pem')], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`cannot start the S3 test server with TLS: openssl failed: ${made.stderr.trim()}`);
    tls = { key: readFileSync(join(root, 'key.pem')), cert: readFileSync(join(root, 'cert.pem')) };
  }
  const launch = async (port: number): Promise<{ server: S3rverInstance; port: number }> => {
    const server = new S3rver({
      ...tls,
      address: '127.0.0.1',
      port,
      directory: root,
      silent: true,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    return { server, port: (await server.run()).port };
  };
  let { server, port } = await launch(options.port ?? 0);
  let running = true;
  const stop = async (): Promise<void> => {
    if (!running) return;
    running = false;
    const closing = server.close();
    server.httpServer.closeAllConnections();
    await closing;
  };
  const endpoint = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  let closed = false;
  let restarting: Promise<void> = Promise.resolve();
  return {
    endpoint,
    bucket,
    root,
    uri: (prefix = '', credentials) =>
      `s3://${credentials ? `${encodeURIComponent(credentials.key)}:${encodeURIComponent(credentials.secret)}@` : ''}${bucket}${prefix === '' ? '' : `/${prefix}`}`,
    settings: (extra = {}) => {
      const values: Record<string, unknown> = {
        AWS_ENDPOINT_URL: endpoint,
        AWS_ACCESS_KEY_ID: S3_KEY_ID,
        AWS_SECRET_ACCESS_KEY: S3_SECRET,
        AWS_REGION_NAME: 'us-east-1',
        ...extra,
      };
      return { get: (name: string) => values[name] };
    },
    stop,
    restart: () =>
      (restarting = (async () => {
        await stop();
        ({ server, port } = await launch(port));
        running = true;
      })()),
    close: async () => {
      if (closed) return;
      closed = true;
      // A restart a test started without waiting for must not leave a server behind.
      await restarting.catch(() => undefined);
      await stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
