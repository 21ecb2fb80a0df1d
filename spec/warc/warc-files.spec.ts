/**
 * WarcFiles, the files of one crawl in WARC_DIR: names, never writing into
 * a file that exists, rollover between captures, and a capture that fails
 * half-way cut off whole (no torn member, no index line past the end).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { WarcFiles, fileTimestamp, indexFileName } from '../../src/warc/warc-files.js';
import type { SerializedRecord } from '../../src/warc/warc-records.js';

const NOW = new Date('2026-11-28T01:51:43.456Z');

/** A stand-in record: a gzip member of `text`, indexed by its URL. */
function record(text: string, url: string | null = null): SerializedRecord {
  const bytes = gzipSync(text);
  return { bytes, size: bytes.length, type: 'response', index: url === null ? null : (offset, length, filename) => `${url} ${offset} ${length} ${filename}\n` };
}

function files(dir: string, prefix = 'spider', maxSize = 0): WarcFiles {
  return new WarcFiles({ dir, prefix, maxSize, now: () => NOW, warcinfo: async (name) => record(`warcinfo ${name}`) });
}

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'seine-warc-files-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('WarcFiles', () => {
  it('names files <spider>-<UTC timestamp>-<serial>.warc.gz, and their index <same>.cdxj', async () => {
    const dir = join(root, 'names');
    const set = files(dir, 'my spider/1');
    await set.open();
    set.close();
    expect(fileTimestamp(NOW)).toBe('20261128015143');
    expect(readdirSync(dir).sort()).toEqual(['my_spider_1-20261128015143-00000.cdxj', 'my_spider_1-20261128015143-00000.warc.gz']);
    expect(indexFileName('a-20261128015143-00007.warc.gz')).toBe('a-20261128015143-00007.cdxj');
  });

  it('never writes into a file that exists: a name taken (a run in the same second) goes to the next serial', async () => {
    const dir = join(root, 'taken');
    const first = files(dir);
    await first.open();
    await first.write([record('one', 'u1')]);
    first.close();
    const before = readFileSync(join(dir, 'spider-20261128015143-00000.warc.gz'));
    const second = files(dir);
    await second.open();
    await second.write([record('two', 'u2')]);
    second.close();
    expect(second.written).toEqual(['spider-20261128015143-00001.warc.gz']);
    expect(readFileSync(join(dir, 'spider-20261128015143-00000.warc.gz'))).toEqual(before);
    expect(readFileSync(join(dir, 'spider-20261128015143-00001.cdxj'), 'utf8')).toMatch(/^u2 \d+ \d+ spider-20261128015143-00001\.warc\.gz\n$/);
  });

  it('starts a new file when a capture would take the file past maxSize, keeping each capture whole in one file', async () => {
    const dir = join(root, 'rollover');
    const one = record('x'.repeat(50), 'u');
    const set = files(dir, 'spider', 2 * one.size + 60);
    await set.open();
    for (let i = 0; i < 5; i++) await set.write([record('x'.repeat(50), `u${i}`), record('y'.repeat(50))]);
    set.close();
    expect(set.written).toHaveLength(5);
    for (const name of set.written) {
      expect(readFileSync(join(dir, indexFileName(name)), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
    }
  });

  it('cuts off a capture whose record fails half-way, so the file ends at a whole record and the index names none of it', async () => {
    const dir = join(root, 'failed');
    const set = files(dir);
    await set.open();
    await set.write([record('kept', 'kept')]);
    const size = statSync(join(dir, set.written[0]!)).size;
    async function* failing(): AsyncIterable<Uint8Array> {
      yield gzipSync('half').subarray(0, 10);
      throw new Error('the body file went away');
    }
    await expect(set.write([record('response', 'lost'), { bytes: failing(), size: 100, type: 'request', index: null }])).rejects.toThrow('the body file went away');
    await set.write([record('after', 'after')]);
    set.close();
    // Whole gzip members only: the file inflates to the records that were written in full.
    expect(gunzipSync(readFileSync(join(dir, set.written[0]!))).toString()).toBe(`warcinfo ${set.written[0]!}keptafter`);
    expect(readFileSync(join(dir, indexFileName(set.written[0]!)), 'utf8').split('\n').filter(Boolean).map((line) => line.split(' ')[0])).toEqual(['kept', 'after']);
    const afterLine = readFileSync(join(dir, indexFileName(set.written[0]!)), 'utf8').split('\n')[1]!;
    expect(Number(afterLine.split(' ')[1])).toBe(size);
  });

  it('names the folder and the reason when WARC_DIR cannot be created', async () => {
    writeFileSync(join(root, 'plain-file'), '');
    await expect(files(join(root, 'plain-file', 'warc')).open()).rejects.toThrow(
      `Cannot write WARC files in WARC_DIR '${join(root, 'plain-file', 'warc')}': ENOTDIR: not a directory, mkdir '${join(root, 'plain-file', 'warc')}' (set -s WARC_DIR=<a writable folder>)`,
    );
  });
});
