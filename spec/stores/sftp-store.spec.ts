/**
 * The sftp:// store against a real OpenSSH sshd (on a free loopback port,
 * SFTP only, spec/helpers/sftp-server.ts), logging in with a generated key
 * (SFTP_PRIVATE_KEY). The server takes no password (the test user has
 * none it could check), so passwords are tested by their refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ObjectStore } from '../../src/stores/object-store.js';
import { putWithRetries } from '../../src/stores/retrying-put.js';
import { StoreError } from '../../src/stores/store-error.js';
import { openStore } from '../../src/stores/store-registry.js';
import { startSftpServer, type SftpTestServer } from '../helpers/sftp-server.js';
import { failingStream, fileMd5, patternMd5, patternStream, stallingStream } from './fixtures/bodies.js';

let server: SftpTestServer;
beforeAll(async () => {
  server = await startSftpServer();
});
afterAll(() => server.close());

function settings(values: Record<string, unknown> = {}): { get(name: string): unknown } {
  const all: Record<string, unknown> = { SFTP_PRIVATE_KEY: server.keyFile, STORE_TIMEOUT: 3, ...values };
  return { get: (name) => all[name] };
}

async function withStore<T>(uri: string, use: (store: ObjectStore) => Promise<T>): Promise<T> {
  const store = await openStore(uri, settings({ SFTP_HOST_FINGERPRINT: server.hostFingerprint }));
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

describe('sftp:// store', () => {
  it('streams 20 MB from a Readable and puts a Buffer, creating the folders a key needs', async () => {
    await withStore(server.uri('drop'), async (store) => {
      await store.put('full/a/b/big.bin', patternStream(20));
      await store.put('small.txt', Buffer.from('hello'));
    });
    expect(fileMd5(join(server.root, 'drop/full/a/b/big.bin'))).toBe(patternMd5(20));
    expect(readFileSync(join(server.root, 'drop/small.txt'), 'utf8')).toBe('hello');
    // Written under a temporary name and renamed: nothing else is left.
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
      await expect(store.put('t.bin', failingStream(2))).rejects.toThrow(/\/cut\/t\.bin: .*truncated download/);
      await store.put('after.txt', Buffer.from('after'));
    });
    expect(readdirSync(join(server.root, 'cut'))).toEqual(['after.txt']);
  });

  it('stats an object by its modification time, with no checksum, and a missing one as undefined', async () => {
    const before = Date.now();
    const found = await withStore(server.uri('stat'), async (store) => {
      await store.put('x/y.txt', Buffer.from('dated'));
      return { present: await store.stat('x/y.txt'), absent: await store.stat('x/none.txt'), folder: await store.stat('x') };
    });
    expect(found.present).toEqual({ lastModified: expect.any(Number), checksum: undefined });
    expect(found.present!.lastModified).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(found.present!.lastModified).toBeLessThanOrEqual(Date.now());
    expect(found.absent).toBeUndefined();
    expect(found.folder).toBeUndefined();
  });

  it('masks the password in displayUri, and a refused login is a StoreError without it', async () => {
    const uri = server.uri('drop', 'not-the-p4ssword');
    const store = await openStore(uri, settings({ SFTP_PRIVATE_KEY: null }));
    const shown = `sftp://${server.user}:***@127.0.0.1:${server.port}${server.root}/drop`;
    expect(store.displayUri).toBe(shown);
    const failure = store.put('x.txt', Buffer.from('x')).finally(() => store.close());
    await expect(failure).rejects.toBeInstanceOf(StoreError);
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toBe(`Could not store ${shown}/x.txt: getConnection: All configured authentication methods failed`);
    expect(message).not.toContain('not-the-p4ssword');
  });

  it('refuses a host key other than SFTP_HOST_FINGERPRINT, naming the one offered', async () => {
    const store = await openStore(server.uri('drop'), settings({ SFTP_HOST_FINGERPRINT: 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }));
    await expect(store.put('x.txt', Buffer.from('x')).finally(() => store.close())).rejects.toThrow(
      `the server's host key is ${server.hostFingerprint}, not the SFTP_HOST_FINGERPRINT SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA: check the server, then set SFTP_HOST_FINGERPRINT to its key`,
    );
    expect(existsSync(join(server.root, 'drop/x.txt'))).toBe(false);
  });

  it('says which SFTP_PRIVATE_KEY it cannot read', async () => {
    await expect(openStore(server.uri('drop'), settings({ SFTP_PRIVATE_KEY: '/nonexistent/id_ed25519' }))).rejects.toThrow(
      `Could not store sftp://${server.user}@127.0.0.1:${server.port}${server.root}/drop: cannot read SFTP_PRIVATE_KEY /nonexistent/id_ed25519: ENOENT: no such file or directory, open '/nonexistent/id_ed25519'`,
    );
  });

  it('fails with a StoreError within seconds when the server dies mid-transfer, and a retried put lands once it is back', async () => {
    const dying = await startSftpServer();
    try {
      const store = await openStore(dying.uri('retry'), settings({ SFTP_PRIVATE_KEY: dying.keyFile }));
      const started = Date.now();
      const cut = store.put('cut.bin', stallingStream(2, () => void dying.stop()));
      await expect(cut).rejects.toThrow(`Could not store ${dying.uri('retry')}/cut.bin: `);
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
      expect(readdirSync(join(dying.root, 'retry')).filter((name) => name.includes('cut.bin') && !name.endsWith('.seine-tmp'))).toEqual([]);
      await store.close();
    } finally {
      await dying.close();
    }
  });

  it('gives up after the given attempts when the server stays down', async () => {
    const gone = await startSftpServer();
    const store = await openStore(gone.uri(), settings({ SFTP_PRIVATE_KEY: gone.keyFile }));
    await gone.close();
    let made = 0;
    const failure = putWithRetries(store, 'never.txt', () => (made++, Buffer.from('x')), { attempts: 2, firstDelayMs: 10 });
    await expect(failure).rejects.toThrow(/ECONNREFUSED/);
    expect(made).toBe(2);
    await store.close();
  });
});
