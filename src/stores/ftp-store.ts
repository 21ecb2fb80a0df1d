/**
 * `ftp://user:pass@host[:port]/dir` and `ftps://…` (explicit TLS: AUTH TLS
 * on the control connection, then protected data connections), through
 * basic-ftp, loaded on first use.
 *
 * One control connection, opened by the first put or stat, reused, and
 * opened again after the server dropped it (so a retried put reaches a
 * restarted server); transfers go one at a time on it. An object is sent to
 * a temporary name beside its target and renamed over it once whole, as the
 * folder store does: a transfer cut short never leaves a half file that
 * FilesPipeline's expiry check would take for a stored one.
 *
 * Transfers are passive, as basic-ftp makes them; FEED_STORAGE_FTP_ACTIVE
 * switches to active mode, which basic-ftp lacks (ftp-active-mode.ts).
 */
import { isIP } from 'node:net';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import type * as BasicFtp from 'basic-ftp';
import { lazyPackage } from '../errors/lazy-package.js';
import { activeModeTransfer } from './ftp-active-mode.js';
import type { ObjectStore, PutOptions, StoredObject } from './object-store.js';
import { SerialQueue } from './serial-queue.js';
import { isCertificateError, storeFailure } from './store-failure.js';
import type { StoreOptions, StoreSettings } from './store-registry.js';
import { boolSetting, storeTimeoutMs } from './store-settings.js';
import { maskedStoreUri, parseStoreUri, pathUnder, type StoreUri } from './store-uri.js';

const basicFtp = lazyPackage<typeof BasicFtp>('basic-ftp', 'ftp:// and ftps:// stores');

export interface FtpStoreConfig {
  readonly uri: StoreUri;
  readonly secure: boolean;
  readonly verify: boolean;
  /** The server opens the data connections to seine (PORT), rather than seine to it (PASV). */
  readonly active: boolean;
  readonly timeoutMs: number;
}

export class FtpStore implements ObjectStore {
  readonly displayUri: string;
  private client: BasicFtp.Client | undefined;
  private readonly queue = new SerialQueue();

  constructor(private readonly config: FtpStoreConfig) {
    this.displayUri = maskedStoreUri(config.uri);
  }

  private async connected(): Promise<BasicFtp.Client> {
    if (this.client && !this.client.closed) return this.client;
    const { Client } = basicFtp();
    const { uri, secure, verify, timeoutMs } = this.config;
    const client = new Client(timeoutMs);
    this.client = client;
    try {
      await client.access({
        host: uri.host,
        port: uri.port ?? 21,
        // Anonymous FTP's convention (RFC 1635), basic-ftp's defaults.
        user: uri.user ?? 'anonymous',
        password: uri.password ?? 'guest',
        secure,
        // SNI names a host, never an address (RFC 6066; Node warns).
        secureOptions: { rejectUnauthorized: verify, ...(isIP(uri.host) === 0 ? { servername: uri.host } : {}) },
      });
    } catch (error) {
      client.close();
      this.client = undefined;
      throw error;
    }
    if (this.config.active) client.prepareTransfer = activeModeTransfer(timeoutMs);
    return client;
  }

  private targetOf(key: string): string {
    return `${this.displayUri}/${key}`;
  }

  put(key: string, body: Readable | Buffer, _options?: PutOptions): Promise<void> {
    return this.queue.run(async () => {
      const path = pathUnder(this.config.uri.path, key);
      const temporary = posix.join(posix.dirname(path), `.${posix.basename(path)}.${process.pid}.seine-tmp`);
      // A body that fails (a truncated download) is the reason, not what basic-ftp then says of the data connection.
      let bodyError: unknown;
      if (!Buffer.isBuffer(body)) body.once('error', (error) => (bodyError ??= error));
      try {
        const client = await this.connected();
        await client.ensureDir(posix.dirname(path));
        await client.uploadFrom(Buffer.isBuffer(body) ? Readable.from([body]) : body, temporary);
        await client.rename(temporary, path);
      } catch (error) {
        if (!Buffer.isBuffer(body)) body.destroy();
        await this.removeAfterFailure(temporary, bodyError !== undefined || isFtpReply(error));
        const hint = isCertificateError(error) ? 'set FTPS_VERIFY to false to accept a self-signed certificate' : undefined;
        throw storeFailure(this.targetOf(key), bodyError ?? error, [this.config.uri.password], hint);
      }
    });
  }

  /**
   * Removes what a failed put left under its temporary name. A transfer cut
   * on our side leaves the connection mid-command, so a new one does it; a
   * server that failed (a reset, a timeout) is not asked again.
   */
  private async removeAfterFailure(temporary: string, serverAlive: boolean): Promise<void> {
    this.dropConnection();
    if (!serverAlive) return;
    try {
      await (await this.connected()).remove(temporary, true);
    } catch {
      this.dropConnection();
    }
  }

  stat(key: string): Promise<StoredObject | undefined> {
    return this.queue.run(async () => {
      const path = pathUnder(this.config.uri.path, key);
      try {
        const client = await this.connected();
        // MDTM; FTP has no cheap checksum (HASH/XMD5 are rare extensions), so none is given.
        const modified = await client.lastMod(path);
        return { lastModified: modified.getTime(), checksum: undefined };
      } catch (error) {
        if (!isFtpReply(error)) this.dropConnection();
        return undefined;
      }
    });
  }

  private dropConnection(): void {
    this.client?.close();
    this.client = undefined;
  }

  async close(): Promise<void> {
    await this.queue.run(async () => this.dropConnection());
  }
}

/** basic-ftp's FTPError: the server answered (550 no such file): the connection is still good. */
function isFtpReply(error: unknown): boolean {
  return typeof (error as { code?: unknown } | null)?.code === 'number';
}

export async function openFtpStore(uri: string, settings: StoreSettings, _options?: StoreOptions): Promise<ObjectStore> {
  const parts = parseStoreUri(uri);
  return new FtpStore({
    uri: parts,
    secure: parts.scheme === 'ftps',
    verify: boolSetting(settings, 'FTPS_VERIFY', true),
    active: boolSetting(settings, 'FEED_STORAGE_FTP_ACTIVE', false),
    timeoutMs: storeTimeoutMs(settings),
  });
}
