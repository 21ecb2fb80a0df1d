/**
 * `s3://bucket/prefix`: objects on Amazon S3 or an S3-compatible service
 * (AWS_ENDPOINT_URL), through the AWS SDK for JavaScript v3, loaded on the
 * first put or stat (it is large).
 *
 * put() goes through lib-storage's Upload: a Buffer under 5 MB is one
 * PutObject, anything larger a multipart upload of 5 MB parts read from the
 * stream as they are sent, so a Readable of unknown length is never held
 * whole (Scrapy reads the whole feed file into one put_object).
 */
import { Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type * as S3Storage from '@aws-sdk/lib-storage';
import { lazyPackage } from '../errors/lazy-package.js';
import type { ObjectStore, PutOptions, StoredObject } from './object-store.js';
import { isCertificateError, storeFailure } from './store-failure.js';
import type { StoreOptions, StoreSettings } from './store-registry.js';
import { boolSetting, storeTimeoutMs, stringSetting } from './store-settings.js';
import { parseStoreUri } from './store-uri.js';

const s3Sdk = lazyPackage<typeof S3Sdk>('@aws-sdk/client-s3', 's3:// stores');
const s3Storage = lazyPackage<typeof S3Storage>('@aws-sdk/lib-storage', 's3:// stores');

/** What the store needs from the URI and the settings, read once when it is opened. */
export interface S3StoreConfig {
  readonly bucket: string;
  /** Prepended to every key: '' or ending in '/'. */
  readonly prefix: string;
  readonly accessKeyId: string | undefined;
  readonly secretAccessKey: string | undefined;
  readonly sessionToken: string | undefined;
  readonly endpoint: string | undefined;
  readonly region: string;
  readonly useSsl: boolean;
  readonly verify: boolean;
  readonly acl: string | undefined;
  readonly timeoutMs: number;
}

export function s3StoreConfig(uri: string, settings: StoreSettings, options: StoreOptions = {}): S3StoreConfig {
  const parts = parseStoreUri(uri);
  const path = parts.path.replace(/^\/+/, '');
  return {
    bucket: parts.host,
    prefix: path === '' ? '' : `${path}/`,
    // As Scrapy: keys in the URI win over the settings.
    accessKeyId: parts.user ?? stringSetting(settings, 'AWS_ACCESS_KEY_ID'),
    secretAccessKey: parts.password ?? stringSetting(settings, 'AWS_SECRET_ACCESS_KEY'),
    sessionToken: stringSetting(settings, 'AWS_SESSION_TOKEN'),
    endpoint: stringSetting(settings, 'AWS_ENDPOINT_URL'),
    region: stringSetting(settings, 'AWS_REGION_NAME') ?? process.env['AWS_REGION'] ?? process.env['AWS_DEFAULT_REGION'] ?? 'us-east-1',
    useSsl: boolSetting(settings, 'AWS_USE_SSL', true),
    verify: boolSetting(settings, 'AWS_VERIFY', true),
    acl: options.acl ?? stringSetting(settings, 'FEED_STORAGE_S3_ACL'),
    timeoutMs: storeTimeoutMs(settings),
  };
}

export class S3Store implements ObjectStore {
  /** `s3://bucket/prefix`: never the keys, not even the access key id. */
  readonly displayUri: string;
  private client: S3Sdk.S3Client | undefined;

  constructor(private readonly config: S3StoreConfig) {
    this.displayUri = `s3://${config.bucket}${config.prefix === '' ? '' : `/${config.prefix.slice(0, -1)}`}`;
  }

  private secrets(): Array<string | undefined> {
    return [this.config.secretAccessKey, this.config.accessKeyId, this.config.sessionToken];
  }

  private s3(): S3Sdk.S3Client {
    if (this.client) return this.client;
    // The SDK warns on every Node before 22 that its future releases will need 22; seine pins its version, so that line would only be noise in a crawl's log.
    process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
    const { S3Client } = s3Sdk();
    const { config } = this;
    const credentials =
      config.accessKeyId !== undefined && config.secretAccessKey !== undefined
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey, ...(config.sessionToken ? { sessionToken: config.sessionToken } : {}) }
        : undefined;
    this.client = new S3Client({
      region: config.region,
      ...(credentials ? { credentials } : {}),
      ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
      tls: config.useSsl,
      // Checksums in trailers (aws-chunked bodies), the SDK's default since 2025, are not understood by many S3-compatible servers; S3 itself does not need them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: {
        connectionTimeout: config.timeoutMs,
        // Idle time, not the request's whole length (requestTimeout, which would cut a long part's upload on a slow link).
        socketTimeout: config.timeoutMs,
        ...(config.verify ? {} : { httpsAgent: new HttpsAgent({ rejectUnauthorized: false, keepAlive: true }) }),
      },
    });
    return this.client;
  }

  async put(key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<void> {
    // A body that fails (a truncated download) is the reason, not what aborting the multipart upload then says.
    let bodyError: unknown;
    if (!Buffer.isBuffer(body)) body.once('error', (error) => (bodyError ??= error));
    try {
      const { Upload } = s3Storage();
      const upload = new Upload({
        client: this.s3(),
        params: {
          Bucket: this.config.bucket,
          Key: this.config.prefix + key,
          Body: body,
          ...(options.contentType ? { ContentType: options.contentType } : {}),
          ...(this.config.acl ? { ACL: this.config.acl as S3Sdk.ObjectCannedACL } : {}),
        },
        // 4 parts of 5 MB in flight: at most ~20 MB of a stream held at once.
        queueSize: 4,
        leavePartsOnError: false,
      });
      await upload.done();
    } catch (error) {
      const hint = isCertificateError(error) ? 'set AWS_VERIFY to false to accept a self-signed certificate' : undefined;
      throw storeFailure(`${this.displayUri}/${key}`, bodyError ?? error, this.secrets(), hint);
    }
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    const { HeadObjectCommand } = s3Sdk();
    try {
      const head = await this.s3().send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.config.prefix + key }));
      if (head.LastModified === undefined) return undefined;
      // As Scrapy's S3FilesStore: the ETag without its quotes (the MD5 of a single-part upload's bytes).
      return { lastModified: head.LastModified.getTime(), checksum: head.ETag?.replace(/"/g, '') };
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.client?.destroy();
    this.client = undefined;
  }
}

export async function openS3Store(uri: string, settings: StoreSettings, options?: StoreOptions): Promise<ObjectStore> {
  return new S3Store(s3StoreConfig(uri, settings, options));
}
