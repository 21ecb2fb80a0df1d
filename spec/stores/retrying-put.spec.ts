/**
 * putWithRetries on a folder store whose folder cannot be written (a file
 * stands where the folder should be) until the test clears the way: the
 * remote stores' own specs retry against servers that stop and come back.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FolderStore } from '../../src/stores/folder-store.js';
import { putWithRetries, retryDelayMs } from '../../src/stores/retrying-put.js';
import { StoreError } from '../../src/stores/store-error.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-retry-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('putWithRetries', () => {
  it('waits firstDelayMs, then twice as long, between attempts', () => {
    expect([1, 2, 3].map((attempt) => retryDelayMs(attempt, 1000))).toEqual([1000, 2000, 4000]);
  });

  it('makes a new body for every attempt and succeeds once the store takes it', async () => {
    const root = join(dir, 'store');
    writeFileSync(root, 'in the way');
    const store = new FolderStore(root);
    const bodies: number[] = [];
    const retries: Array<[number, string]> = [];
    const started = Date.now();
    await putWithRetries(store, 'a/b.txt', () => {
      bodies.push(bodies.length + 1);
      return Readable.from([Buffer.from(`attempt ${bodies.length}`)]);
    }, {
      attempts: 3,
      firstDelayMs: 50,
      onRetry: (attempt, error) => {
        retries.push([attempt, error.code]);
        if (attempt === 2) rmSync(root);
      },
    });
    expect(retries).toEqual([[1, 'SEINE_STORE'], [2, 'SEINE_STORE']]);
    expect(bodies).toEqual([1, 2, 3]);
    expect(readFileSync(join(root, 'a', 'b.txt'), 'utf8')).toBe('attempt 3');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('gives up after the given number of attempts with the last StoreError', async () => {
    const root = join(dir, 'store');
    writeFileSync(root, 'in the way');
    let made = 0;
    const failure = putWithRetries(new FolderStore(root), 'x.bin', () => (made++, Buffer.from('x')), { attempts: 2, firstDelayMs: 10 });
    await expect(failure).rejects.toBeInstanceOf(StoreError);
    await expect(failure).rejects.toThrow(`Could not store ${join(root, 'x.bin')}:`);
    expect(made).toBe(2);
  });

  it('turns a body that cannot be made into a StoreError naming the target', async () => {
    const store = new FolderStore(join(dir, 'store'));
    const failure = putWithRetries(store, 'k.txt', () => {
      throw new Error('ENOENT: no such file, open /tmp/gone');
    }, { attempts: 1 });
    await expect(failure).rejects.toThrow(`Could not store ${join(dir, 'store')}/k.txt: ENOENT: no such file, open /tmp/gone`);
  });
});
