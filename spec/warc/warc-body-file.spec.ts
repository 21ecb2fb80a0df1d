/**
 * A media download whose body went to a temporary file (Response.bodyFile,
 * written by the HTTP handler for the media pipelines) is archived from that
 * file, even when the pipeline removes the file before the record is
 * written; the file the archive kept for itself is removed once written.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Request } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';
import { WarcWriter } from '../../src/warc/index.js';
import { fakeCrawler, TestSpider } from '../helpers/fake-crawler.js';
import { readWithPython, sha1Digest } from './fixtures/warc-reading.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'seine-warc-bodyfile-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('WarcWriter and bodies in files', () => {
  it('archives a body from its temporary file, removed by its consumer before the record is written', async () => {
    const warcDir = join(root, 'warc');
    const temp = join(root, 'temp');
    const crawler = fakeCrawler({ WARC_ENABLED: true, WARC_DIR: warcDir });
    const writer = WarcWriter.fromCrawler(crawler);
    await writer.openSpider(new TestSpider());
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    mkdirSync(temp);
    const path = join(temp, 'body');
    writeFileSync(path, bytes);
    const url = 'http://127.0.0.1:9/files/big.bin';
    const request = new Request(url);
    const response = new Response({
      url,
      status: 200,
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(bytes.length) },
      request,
      bodyFile: { path, size: bytes.length, md5: createHash('md5').update(bytes).digest('hex') },
    });
    crawler.emit({ type: 'response_downloaded', request, response });
    rmSync(path);
    await writer.closeSpider();
    const [file] = readWithPython(warcDir);
    expect(file!.errors).toEqual([]);
    const record = file!.records.find((r) => r.type === 'response')!;
    expect(record.uri).toBe(url);
    expect(record.payloadDigest).toBe(sha1Digest(bytes));
    expect(file!.index.map((line) => line.url)).toEqual([url]);
    expect(readdirSync(temp)).toEqual([]);
    expect(crawler.stats.getAll()['warc/records']).toBe(3);
    expect(record.http!.bodyLength).toBe(bytes.length);
  });
});

