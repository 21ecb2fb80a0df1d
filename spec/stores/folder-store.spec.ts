/**
 * FolderStore: bytes and streams land whole under their key, with the MD5 a
 * later stat reports; each folder is made once per store, and made again if
 * it is removed while the crawl runs.
 */
import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FolderStore } from '../../src/stores/folder-store.js';
import { putWithRetries } from '../../src/stores/retrying-put.js';

const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');

describe('FolderStore', () => {
  it('stores bytes and streams under their keys, leaving no temporary file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'seine-folder-store-'));
    try {
      const store = new FolderStore(root);
      const bytes = Buffer.from('a thumbnail');
      await store.put('thumbs/small/a.jpg', bytes);
      await store.put('full/b.bin', Readable.from([Buffer.from('two '), Buffer.from('chunks')]));
      expect(readFileSync(join(root, 'thumbs/small/a.jpg'))).toEqual(bytes);
      expect(readFileSync(join(root, 'full/b.bin'), 'utf8')).toBe('two chunks');
      expect((await store.stat('thumbs/small/a.jpg'))?.checksum).toBe(md5(bytes));
      expect([readdirSync(join(root, 'thumbs/small')), readdirSync(join(root, 'full'))]).toEqual([['a.jpg'], ['b.bin']]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('makes a folder again when it was removed after a first put', async () => {
    const root = mkdtempSync(join(tmpdir(), 'seine-folder-store-'));
    try {
      const store = new FolderStore(root);
      await store.put('full/a.jpg', Buffer.from('first'));
      rmSync(join(root, 'full'), { recursive: true });
      // Bytes in memory: the same put makes the folder again.
      await store.put('full/b.jpg', Buffer.from('second'));
      expect(readFileSync(join(root, 'full/b.jpg'), 'utf8')).toBe('second');
      // A stream is read once: that attempt fails, and the retry the media pipelines make (putWithRetries, a new stream) succeeds.
      rmSync(join(root, 'full'), { recursive: true });
      const retries: number[] = [];
      await putWithRetries(store, 'full/c.bin', () => Readable.from([Buffer.from('third')]), { firstDelayMs: 0, onRetry: (attempt) => retries.push(attempt) });
      expect(readFileSync(join(root, 'full/c.bin'), 'utf8')).toBe('third');
      expect(retries).toEqual([1]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
