/** The feedSink operator of seine/operators: any stream to one feed, values passed on unchanged. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { lastValueFrom, of, toArray } from 'rxjs';
import { feedSink } from '../../src/operators/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-feed-sink-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('feedSink', () => {
  it('writes each value to the feed in its format and passes it on', async () => {
    const path = join(dir, 'items.csv');
    const out = await lastValueFrom(of({ a: 1, b: ['x', 'y'] }, { a: 2 }).pipe(feedSink({ path, overwrite: true }), toArray()));
    expect(out).toEqual([{ a: 1, b: ['x', 'y'] }, { a: 2 }]);
    expect(readFileSync(path, 'utf8')).toBe('a,b\r\n1,"x,y"\r\n2,\r\n');
  });

  it('select picks what to export from each value', async () => {
    const path = join(dir, 'items.jsonl');
    await lastValueFrom(of({ item: { a: 1 }, response: null }).pipe(feedSink({ path, overwrite: true, select: (v: { item: unknown }) => v.item })));
    expect(readFileSync(path, 'utf8')).toBe('{"a": 1}\n');
  });

  it('completes only once a post-processed feed is in place', async () => {
    const path = join(dir, 'items.jsonl.gz');
    await lastValueFrom(of({ a: 1 }, { a: 2 }).pipe(feedSink({ path, overwrite: true, postprocessing: ['GzipPlugin'] })));
    expect(gunzipSync(readFileSync(path)).toString('utf8')).toBe('{"a": 1}\n{"a": 2}\n');
  });

  it('errors on subscription, before any value, when the feed cannot be opened', async () => {
    const path = join(dir, 'missing', 'items.json');
    await expect(lastValueFrom(of(1).pipe(feedSink({ path, overwrite: true })))).rejects.toThrow(`Cannot write the feed '${path}': the folder`);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });
});
