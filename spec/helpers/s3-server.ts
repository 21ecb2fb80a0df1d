/**
 * A real S3-compatible server for a test: s3rver (npm, in Node) on a free
 * loopback port, its buckets in a temporary folder, stopped after.
 *
 * s3rver checks that the access key id is one it knows (S3RVER) but does
 * not verify SigV4 signatures: a wrong secret is accepted, so a refused
 * credential is tested with an unknown key id.
 */
import { mkdtempSync, rmSync } from 'node:fs';
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
  /** http://127.0.0.1:<port>: the value of AWS_ENDPOINT_URL. */
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

export async function startS3Server(options: { bucket?: string; port?: number } = {}): Promise<S3TestServer> {
  const S3rver = requireHere('s3rver') as S3rverClass;
  const bucket = options.bucket ?? 'seine-test';
  const root = mkdtempSync(join(tmpdir(), 'seine-s3-'));
  const launch = async (port: number): Promise<{ server: S3rverInstance; port: number }> => {
    const server = new S3rver({
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
  const endpoint = `http://127.0.0.1:${port}`;
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
