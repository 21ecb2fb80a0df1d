/**
 * `sftp://user[:pass]@host[:port]/dir`: files over SSH (beyond Scrapy),
 * through ssh2-sftp-client, loaded on first use. It logs in with the
 * password in the URI or the private key at SFTP_PRIVATE_KEY; it accepts
 * the host key SFTP_HOST_FINGERPRINT names (any, when that is null).
 *
 * One SSH session, opened by the first put or stat, reused, and opened
 * again (a new client: the package's advice) after it was lost; operations
 * go one at a time on it (the package finds parallel ones unreliable). An
 * object is written to a temporary name and renamed over its target once
 * whole (posix-rename, which OpenSSH's server offers).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import { lazyPackage } from '../errors/lazy-package.js';
import type { ObjectStore, PutOptions, StoredObject } from './object-store.js';
import { SerialQueue } from './serial-queue.js';
import { StoreError } from './store-error.js';
import { storeFailure } from './store-failure.js';
import type { StoreOptions, StoreSettings } from './store-registry.js';
import { storeTimeoutMs, stringSetting } from './store-settings.js';
import { maskedStoreUri, parseStoreUri, pathUnder, type StoreUri } from './store-uri.js';

/** The part of ssh2-sftp-client's API this store uses (the package ships no types). */
interface SftpClient {
  connect(options: Record<string, unknown>): Promise<unknown>;
  put(source: Readable | Buffer, remotePath: string): Promise<string>;
  mkdir(path: string, recursive: boolean): Promise<string>;
  exists(path: string): Promise<false | 'd' | '-' | 'l'>;
  posixRename(from: string, to: string): Promise<string>;
  delete(path: string, noErrorOk: boolean): Promise<string>;
  stat(path: string): Promise<{ modifyTime: number; isFile: boolean }>;
  end(): Promise<boolean>;
}
type SftpClientClass = new (name: string, callbacks: Record<string, (...args: unknown[]) => void>) => SftpClient;

const sftpClientClass = lazyPackage<SftpClientClass>('ssh2-sftp-client', 'sftp:// stores');

export interface SftpStoreConfig {
  readonly uri: StoreUri;
  /** The private key's text, read from SFTP_PRIVATE_KEY when the store was opened. */
  readonly privateKey: string | undefined;
  /** `SHA256:…` as ssh-keygen -l prints it, or undefined to accept any host key. */
  readonly hostFingerprint: string | undefined;
  readonly timeoutMs: number;
}

/** The SHA-256 fingerprint of an SSH host key (the key's wire form), as `ssh-keygen -l` prints it. */
export function sshFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

export class SftpStore implements ObjectStore {
  readonly displayUri: string;
  private client: SftpClient | undefined;
  private readonly queue = new SerialQueue();
  private hostKeyRefused: string | undefined;

  constructor(private readonly config: SftpStoreConfig) {
    this.displayUri = maskedStoreUri(config.uri);
  }

  private async connected(): Promise<SftpClient> {
    if (this.client) return this.client;
    const Client = sftpClientClass();
    const lost = (): void => {
      if (this.client === client) this.client = undefined;
    };
    // The package's default callbacks print to the console; a lost session is noticed by the next operation's error instead.
    const client = new Client('sftp', { error: lost, end: lost, close: lost });
    const { uri, privateKey, hostFingerprint, timeoutMs } = this.config;
    this.hostKeyRefused = undefined;
    try {
      await client.connect({
        host: uri.host,
        port: uri.port ?? 22,
        username: uri.user ?? userInfo().username,
        ...(privateKey !== undefined ? { privateKey } : uri.password !== undefined ? { password: uri.password } : {}),
        readyTimeout: timeoutMs,
        // A dead peer is noticed within a few keepalives rather than when TCP gives up.
        keepaliveInterval: Math.max(1000, Math.floor(timeoutMs / 3)),
        keepaliveCountMax: 3,
        hostVerifier: (key: Buffer) => {
          if (hostFingerprint === undefined) return true;
          const offered = sshFingerprint(key);
          if (offered === hostFingerprint) return true;
          this.hostKeyRefused = offered;
          return false;
        },
      });
    } catch (error) {
      await client.end().catch(() => undefined);
      if (this.hostKeyRefused !== undefined) {
        throw new StoreError(this.displayUri, `the server's host key is ${this.hostKeyRefused}, not the SFTP_HOST_FINGERPRINT ${hostFingerprint}: check the server, then set SFTP_HOST_FINGERPRINT to its key`, { cause: error });
      }
      throw error;
    }
    this.client = client;
    return client;
  }

  private secrets(): Array<string | undefined> {
    return [this.config.uri.password];
  }

  put(key: string, body: Readable | Buffer, _options?: PutOptions): Promise<void> {
    return this.queue.run(async () => {
      const path = pathUnder(this.config.uri.path, key);
      const temporary = posix.join(posix.dirname(path), `.${posix.basename(path)}.${process.pid}.seine-tmp`);
      try {
        const client = await this.connected();
        const folder = posix.dirname(path);
        if ((await client.exists(folder)) !== 'd') await client.mkdir(folder, true);
        await client.put(body, temporary);
        await client.posixRename(temporary, path);
      } catch (error) {
        if (!Buffer.isBuffer(body)) body.destroy();
        await this.client?.delete(temporary, true).catch(() => undefined);
        // The package notices a lost session only by its events, which may come after the failure: start afresh next time.
        await this.dropSession();
        throw storeFailure(`${this.displayUri}/${key}`, error, this.secrets());
      }
    });
  }

  stat(key: string): Promise<StoredObject | undefined> {
    return this.queue.run(async () => {
      try {
        const found = await (await this.connected()).stat(pathUnder(this.config.uri.path, key));
        // SFTP has no checksum of a file short of reading it back.
        return found.isFile ? { lastModified: found.modifyTime, checksum: undefined } : undefined;
      } catch (error) {
        if (!/no such file/i.test((error as Error).message)) await this.dropSession();
        return undefined;
      }
    });
  }

  private async dropSession(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    // end() waits for the server to close the session: a server that went silent is not waited for past a second.
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)));
    await Promise.race([client.end().catch(() => undefined), giveUp]);
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    await this.queue.run(() => this.dropSession());
  }
}

export async function openSftpStore(uri: string, settings: StoreSettings, _options?: StoreOptions): Promise<ObjectStore> {
  const parts = parseStoreUri(uri);
  const keyPath = stringSetting(settings, 'SFTP_PRIVATE_KEY');
  let privateKey: string | undefined;
  if (keyPath !== undefined) {
    try {
      privateKey = readFileSync(keyPath, 'utf8');
    } catch (error) {
      throw new StoreError(maskedStoreUri(parts), `cannot read SFTP_PRIVATE_KEY ${keyPath}: ${(error as Error).message}`, { cause: error });
    }
  }
  return new SftpStore({
    uri: parts,
    privateKey,
    hostFingerprint: stringSetting(settings, 'SFTP_HOST_FINGERPRINT'),
    timeoutMs: storeTimeoutMs(settings),
  });
}
