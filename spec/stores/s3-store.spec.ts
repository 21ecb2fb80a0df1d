/**
 * The s3:// store against a real S3-compatible server (s3rver on a free
 * loopback port, spec/helpers/s3-server.ts). s3rver refuses an unknown
 * access key id but does not check signatures, so a wrong secret cannot be
 * told from a right one here: the refused credential is a wrong key id.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server, type Socket } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ObjectStore } from '../../src/stores/object-store.js';
import { putWithRetries } from '../../src/stores/retrying-put.js';
import { StoreError } from '../../src/stores/store-error.js';
import { openStore } from '../../src/stores/store-registry.js';
import { startS3Server, S3_KEY_ID, type S3TestServer } from '../helpers/s3-server.js';
import { failingStream, fileMd5, md5, patternMd5, patternStream } from './fixtures/bodies.js';

let server: S3TestServer;
beforeAll(async () => {
  server = await startS3Server();
});
afterAll(() => server.close());

/** Where s3rver keeps an object's bytes. */
function objectFile(key: string): string {
  return join(server.root, server.bucket, `${key}._S3rver_object`);
}

async function withStore<T>(uri: string, settings: { get(name: string): unknown }, use: (store: ObjectStore) => Promise<T>): Promise<T> {
  const store = await openStore(uri, settings);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

describe('s3:// store', () => {
  it('streams 20 MB from a Readable as a multipart upload and puts a Buffer, under the prefix', async () => {
    await withStore(server.uri('media'), server.settings(), async (store) => {
      await store.put('full/big.bin', patternStream(20));
      await store.put('full/small.txt', Buffer.from('hello'), { contentType: 'text/plain' });
    });
    expect(fileMd5(objectFile('media/full/big.bin'))).toBe(patternMd5(20));
    expect(readFileSync(objectFile('media/full/small.txt'), 'utf8')).toBe('hello');
    const metadata = JSON.parse(readFileSync(join(server.root, server.bucket, 'media/full/small.txt._S3rver_metadata.json'), 'utf8')) as Record<string, string>;
    expect(metadata['content-type']).toBe('text/plain');
  });

  it("fails a put whose body fails (a truncated download) with the body's error, storing nothing, and goes on", async () => {
    await withStore(server.uri('cut'), server.settings(), async (store) => {
      for (const megabytes of [1, 7]) {
        await expect(store.put('t.bin', failingStream(megabytes))).rejects.toThrow(`Could not store s3://${server.bucket}/cut/t.bin: truncated download`);
        expect(await store.stat('t.bin')).toBeUndefined();
      }
      await store.put('after.txt', Buffer.from('after'));
    });
    expect(readFileSync(objectFile('cut/after.txt'), 'utf8')).toBe('after');
  });

  it('refuses a server whose certificate it cannot verify unless AWS_VERIFY is false', async () => {
    const secure = await startS3Server({ tls: true });
    try {
      const strict = await openStore(secure.uri('tls'), secure.settings());
      await expect(strict.put('a.txt', Buffer.from('a')).finally(() => strict.close())).rejects.toThrow(
        `Could not store s3://${secure.bucket}/tls/a.txt: self-signed certificate; set AWS_VERIFY to false to accept a self-signed certificate`,
      );
      await withStore(secure.uri('tls'), secure.settings({ AWS_VERIFY: false }), (store) => store.put('a.txt', Buffer.from('trusted')));
      expect(readFileSync(join(secure.root, secure.bucket, 'tls/a.txt._S3rver_object'), 'utf8')).toBe('trusted');
    } finally {
      await secure.close();
    }
  });

  it('takes puts made at once, as the media pipeline makes them', async () => {
    const keys = Array.from({ length: 8 }, (_, i) => `many/${i}.txt`);
    await withStore(server.uri(), server.settings(), (store) => Promise.all(keys.map((key) => store.put(key, Buffer.from(key)))));
    expect(keys.map((key) => readFileSync(objectFile(key), 'utf8'))).toEqual(keys);
  });

  it("stats an object as HeadObject gives it: its time, and the ETag without quotes (a single part's MD5), as Scrapy's S3FilesStore", async () => {
    const before = Date.now();
    const found = await withStore(server.uri('stat'), server.settings(), async (store) => {
      await store.put('a/b/c.txt', Buffer.from('checksum me'));
      return { present: await store.stat('a/b/c.txt'), absent: await store.stat('a/b/none.txt') };
    });
    expect(found.present?.checksum).toBe(md5('checksum me'));
    // S3 keeps whole seconds.
    expect(found.present!.lastModified).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(found.present!.lastModified).toBeLessThanOrEqual(Date.now());
    expect(found.absent).toBeUndefined();
  });

  it('takes its keys from the URI over the settings, and never shows them', async () => {
    const uri = server.uri('feeds', { key: 'AKIAWRONGKEYID', secret: 'wJalr/XUtnFEMI+K7MDENG' });
    const store = await openStore(uri, server.settings());
    expect(store.displayUri).toBe(`s3://${server.bucket}/feeds`);
    const failure = store.put('items.jsonl', Buffer.from('{}\n')).finally(() => store.close());
    await expect(failure).rejects.toBeInstanceOf(StoreError);
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toBe(`Could not store s3://${server.bucket}/feeds/items.jsonl: The AWS Access Key Id you provided does not exist in our records.`);
    expect(message).not.toContain('AKIAWRONGKEYID');
    expect(message).not.toContain('wJalr');
    // With the server's own key in the URI, the same settings work.
    await withStore(server.uri('feeds', { key: S3_KEY_ID, secret: 'S3RVER' }), server.settings({ AWS_ACCESS_KEY_ID: 'AKIAWRONGKEYID' }), (good) =>
      good.put('items.jsonl', Buffer.from('{}\n')),
    );
    expect(existsSync(objectFile('feeds/items.jsonl'))).toBe(true);
  });

  it('fails fast with a StoreError when the server is down, and a retried put lands once it is back', async () => {
    const restarted = await startS3Server();
    try {
      const store = await openStore(restarted.uri('retry'), restarted.settings({ STORE_TIMEOUT: 2 }));
      await restarted.stop();
      const started = Date.now();
      await expect(store.put('down.txt', Buffer.from('x'))).rejects.toThrow(`Could not store s3://${restarted.bucket}/retry/down.txt: `);
      expect(Date.now() - started).toBeLessThan(5000);

      const attempts: number[] = [];
      await putWithRetries(store, 'back.bin', () => patternStream(6), {
        attempts: 4,
        firstDelayMs: 200,
        onRetry: (attempt) => {
          attempts.push(attempt);
          if (attempt === 1) void restarted.restart();
        },
      });
      expect(attempts.length).toBeGreaterThanOrEqual(1);
      expect(fileMd5(join(restarted.root, restarted.bucket, 'retry/back.bin._S3rver_object'))).toBe(patternMd5(6));
      await store.close();
    } finally {
      await restarted.close();
    }
  });

  it('gives up after the given attempts when the server stays down', async () => {
    const gone = await startS3Server();
    const store = await openStore(gone.uri(), gone.settings({ STORE_TIMEOUT: 2 }));
    await gone.close();
    let made = 0;
    const failure = putWithRetries(store, 'never.txt', () => (made++, Buffer.from('x')), { attempts: 2, firstDelayMs: 10 });
    await expect(failure).rejects.toThrow(`Could not store s3://${gone.bucket}/never.txt: `);
    expect(made).toBe(2);
    await store.close();
  });

  it('gives up on a server that accepts connections and never answers after STORE_TIMEOUT', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const store = await openStore(server.uri('x'), server.settings({ AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`, STORE_TIMEOUT: 0.5 }));
      const started = Date.now();
      await expect(store.put('hang.txt', Buffer.from('x'))).rejects.toBeInstanceOf(StoreError);
      // The SDK tries 3 times, each cut at STORE_TIMEOUT.
      expect(Date.now() - started).toBeLessThan(6000);
      await store.close();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
