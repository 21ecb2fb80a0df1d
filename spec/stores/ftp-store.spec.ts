/**
 * The ftp:// and ftps:// stores against a real FTP server (pyftpdlib on a
 * free loopback port, with explicit TLS on a self-signed certificate for
 * ftps://; spec/helpers/ftp-server.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ObjectStore } from '../../src/stores/object-store.js';
import { putWithRetries } from '../../src/stores/retrying-put.js';
import { StoreError } from '../../src/stores/store-error.js';
import { openStore } from '../../src/stores/store-registry.js';
import { FTP_PASSWORD, FTP_USER, startFtpServer, type FtpTestServer } from '../helpers/ftp-server.js';
import { failingStream, fileMd5, patternMd5, patternStream, stallingStream } from './fixtures/bodies.js';

function settings(values: Record<string, unknown> = {}): { get(name: string): unknown } {
  return { get: (name) => values[name] };
}

describe.each([
  { scheme: 'ftp', tls: false },
  { scheme: 'ftps', tls: true },
])('$scheme:// store', ({ scheme, tls }) => {
  let server: FtpTestServer;
  // The test server's certificate is self-signed.
  const trusting = settings({ FTPS_VERIFY: false, STORE_TIMEOUT: 3 });
  beforeAll(async () => {
    server = await startFtpServer({ tls });
  });
  afterAll(() => server.close());

  async function withStore<T>(uri: string, use: (store: ObjectStore) => Promise<T>): Promise<T> {
    const store = await openStore(uri, trusting);
    try {
      return await use(store);
    } finally {
      await store.close();
    }
  }

  it('streams 20 MB from a Readable and puts a Buffer, creating the folders a key needs', async () => {
    await withStore(server.uri('drop'), async (store) => {
      await store.put('full/a/b/big.bin', patternStream(20));
      await store.put('small.txt', Buffer.from('hello'));
    });
    expect(fileMd5(join(server.root, 'drop/full/a/b/big.bin'))).toBe(patternMd5(20));
    expect(readFileSync(join(server.root, 'drop/small.txt'), 'utf8')).toBe('hello');
    // Sent under a temporary name and renamed: nothing else is left.
    expect(readdirSync(join(server.root, 'drop')).sort()).toEqual(['full', 'small.txt']);
  });

  it('takes puts and stats made at once, one transfer after another on its one connection', async () => {
    const keys = Array.from({ length: 8 }, (_, i) => `many/${i % 2}/${i}.txt`);
    const stats = await withStore(server.uri('many'), async (store) => {
      await Promise.all(keys.map((key) => store.put(key, patternStream(1))));
      return Promise.all(keys.map((key) => store.stat(key)));
    });
    expect(keys.map((key) => fileMd5(join(server.root, 'many', key)))).toEqual(keys.map(() => patternMd5(1)));
    expect(stats.every((found) => found !== undefined)).toBe(true);
  });

  it("fails a put whose body fails (a truncated download) with the body's error, leaving nothing, and goes on", async () => {
    await withStore(server.uri('cut'), async (store) => {
      await expect(store.put('t.bin', failingStream(2))).rejects.toThrow(`Could not store ${server.uri('cut').replace(FTP_PASSWORD, '***')}/t.bin: truncated download`);
      await store.put('after.txt', Buffer.from('after'));
    });
    expect(readdirSync(join(server.root, 'cut'))).toEqual(['after.txt']);
  });

  it('stats an object by its MDTM time, with no checksum, and a missing one as undefined', async () => {
    const before = Date.now();
    const found = await withStore(server.uri('stat'), async (store) => {
      await store.put('x/y.txt', Buffer.from('dated'));
      return { present: await store.stat('x/y.txt'), absent: await store.stat('x/none.txt') };
    });
    expect(found.present).toEqual({ lastModified: expect.any(Number), checksum: undefined });
    // MDTM gives whole seconds.
    expect(found.present!.lastModified).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(found.present!.lastModified).toBeLessThanOrEqual(Date.now());
    expect(found.absent).toBeUndefined();
  });

  it('masks the password in displayUri, and a refused login is a StoreError without it', async () => {
    const store = await openStore(server.uri('drop', { user: FTP_USER, password: 'not-the-p4ssword' }), trusting);
    expect(store.displayUri).toBe(`${scheme}://${FTP_USER}:***@127.0.0.1:${server.port}/drop`);
    const failure = store.put('x.txt', Buffer.from('x')).finally(() => store.close());
    await expect(failure).rejects.toBeInstanceOf(StoreError);
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toBe(`Could not store ${scheme}://${FTP_USER}:***@127.0.0.1:${server.port}/drop/x.txt: 530 Authentication failed.`);
    expect(message).not.toContain('not-the-p4ssword');
  });

  it('fails with a StoreError within seconds when the server dies mid-transfer, and a retried put lands once it is back', async () => {
    const dying = await startFtpServer({ tls });
    try {
      const store = await openStore(dying.uri('retry'), trusting);
      const started = Date.now();
      const cut = store.put('cut.bin', stallingStream(2, () => void dying.stop()));
      await expect(cut).rejects.toThrow(`Could not store ${dying.uri('retry').replace(FTP_PASSWORD, '***')}/cut.bin: `);
      expect(Date.now() - started).toBeLessThan(5000);

      const attempts: number[] = [];
      await putWithRetries(store, 'back.bin', () => patternStream(3), {
        attempts: 4,
        firstDelayMs: 200,
        onRetry: (attempt) => {
          attempts.push(attempt);
          if (attempt === 1) void dying.restart();
        },
      });
      expect(attempts[0]).toBe(1);
      expect(fileMd5(join(dying.root, 'retry/back.bin'))).toBe(patternMd5(3));
      expect(existsSync(join(dying.root, 'retry/cut.bin'))).toBe(false);
      await store.close();
    } finally {
      await dying.close();
    }
  });

  it('transfers in active mode with FEED_STORAGE_FTP_ACTIVE, to a server that refuses passive mode', async () => {
    const activeOnly = await startFtpServer({ tls, passive: false });
    try {
      const passiveStore = await openStore(activeOnly.uri('active'), trusting);
      await expect(passiveStore.put('p.txt', Buffer.from('p')).finally(() => passiveStore.close())).rejects.toThrow('502 Passive mode is off on this server.');
      const store = await openStore(activeOnly.uri('active'), settings({ FEED_STORAGE_FTP_ACTIVE: true, FTPS_VERIFY: false, STORE_TIMEOUT: 3 }));
      await store.put('big.bin', patternStream(5));
      await store.put('a/small.txt', Buffer.from('active'));
      await store.close();
      expect(fileMd5(join(activeOnly.root, 'active/big.bin'))).toBe(patternMd5(5));
      expect(readFileSync(join(activeOnly.root, 'active/a/small.txt'), 'utf8')).toBe('active');
    } finally {
      await activeOnly.close();
    }
  });

  it('gives up after the given attempts when the server stays down', async () => {
    const gone = await startFtpServer({ tls });
    const store = await openStore(gone.uri(), trusting);
    await gone.close();
    let made = 0;
    const failure = putWithRetries(store, 'never.txt', () => (made++, Buffer.from('x')), { attempts: 2, firstDelayMs: 10 });
    await expect(failure).rejects.toThrow(/ECONNREFUSED/);
    expect(made).toBe(2);
    await store.close();
  });
});

describe('ftp:// store options', () => {
  it('refuses an ftps:// server whose certificate it cannot verify unless FTPS_VERIFY is false', async () => {
    const server = await startFtpServer({ tls: true });
    try {
      const store = await openStore(server.uri('v'), settings({ STORE_TIMEOUT: 3 }));
      await expect(store.put('a.txt', Buffer.from('a')).finally(() => store.close())).rejects.toThrow(
        `Could not store ftps://${FTP_USER}:***@127.0.0.1:${server.port}/v/a.txt: self-signed certificate; set FTPS_VERIFY to false to accept a self-signed certificate`,
      );
    } finally {
      await server.close();
    }
  });

  it('logs in as anonymous when the URI names no user', async () => {
    const server = await startFtpServer({ anonymous: true });
    try {
      const store = await openStore(server.uri('pub', null), settings());
      expect(store.displayUri).toBe(`ftp://127.0.0.1:${server.port}/pub`);
      await store.put('anon.txt', Buffer.from('anonymous'));
      await store.close();
      expect(readFileSync(join(server.root, 'pub/anon.txt'), 'utf8')).toBe('anonymous');
    } finally {
      await server.close();
    }
  });
});
