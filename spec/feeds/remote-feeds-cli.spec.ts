/**
 * Remote and compressed feeds through the real `seine` binary: -o to an
 * FTP server (pyftpdlib), an SFTP server (OpenSSH) and the S3 server
 * (s3rver), each on a loopback port; FEEDS with GzipPlugin batches that
 * reach the bucket while the crawl still runs; and an FTP server that is
 * down: one ERROR naming the kept copy, exit status 1, and a second run
 * that keeps its own copy beside the first. No password in any line.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { startFtpServer, FTP_PASSWORD, type FtpTestServer } from '../helpers/ftp-server.js';
import { startSftpServer, type SftpTestServer } from '../helpers/sftp-server.js';
import { startS3Server, S3_KEY_ID, S3_SECRET, type S3TestServer } from '../helpers/s3-server.js';
import { QUOTES_SPIDER } from '../cli/fixtures/spiders.js';
import { ROOT, ensureBuilt, logMessages, runSeine, startSeine, type SeineRun } from '../cli/fixtures/run-seine.js';

const QUIET = ['-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOGSTATS_INTERVAL=0', '-L', 'INFO'];
const ITEMS_JSONL = '{"text": "One", "author": "A", "tags": ["x"]}\n{"text": "Two", "author": "B", "tags": []}\n';

const SLOW_SPIDER = `import { Spider, type Response } from 'seine';

export class SlowSpider extends Spider {
  static name = 'slow';
  startUrls = ['http://127.0.0.1:8000/slow/1/'];

  *parse(response: Response) {
    const n = Number(response.url.split('/').at(-2));
    yield { n };
    if (n < 4) yield response.follow(\`/slow/\${n + 1}/\`, this.parse);
  }
}
`;

/** 40 pages of 20 items, 120 bytes each as JSON Lines. */
const MANY_SPIDER = `import { Spider, type Response } from 'seine';

export class ManySpider extends Spider {
  static name = 'many';
  startUrls = ['http://127.0.0.1:8000/many/1'];
  *parse(response: Response) {
    const page = Number(response.url.split('/').pop());
    for (let i = 0; i < 20; i++) yield { i: (page - 1) * 20 + i, text: 'x'.repeat(100) };
    if (page < 40) yield response.follow('/many/' + (page + 1));
  }
}
`;

/** Runs seine under bash with a file size limit (`ulimit -f`, in KiB): writes past it fail with EFBIG, as on a full disk. */
function runLimited(kib: number, args: readonly string[], cwd: string): Promise<SeineRun> {
  const command = `ulimit -f ${kib}; exec "${process.execPath}" "${join(ROOT, 'bin', 'seine.js')}" ${args.map((arg) => `'${arg}'`).join(' ')}`;
  const child = spawn('bash', ['-c', command], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr })));
}

function quotePage(text: string, author: string, tags: string[], next?: string): string {
  const links = tags.map((t) => `<a class="tag" href="/tag/${t}/">${t}</a>`).join(' ');
  return `<html><body><div class="quote"><span class="text">${text}</span><small class="author">${author}</small><div class="tags">${links}</div></div>
<ul class="pager">${next === undefined ? '' : `<li class="next"><a href="${next}">Next</a></li>`}</ul></body></html>`;
}

let site: TestSite;
let dir: string;
let temp: string;
let ftp: FtpTestServer;
let sftp: SftpTestServer;
let s3: S3TestServer;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const routes: Parameters<typeof startSite>[0] = { '/page/1/': quotePage('One', 'A', ['x'], '/page/2/'), '/page/2/': quotePage('Two', 'B', []) };
  for (let n = 1; n <= 40; n++) routes[`/many/${n}`] = '<html><body>many</body></html>';
  for (let n = 1; n <= 4; n++) {
    routes[`/slow/${n}/`] = (_req, res) => {
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body>${n}</body></html>`);
      }, 300).unref();
    };
  }
  [site, ftp, sftp, s3] = await Promise.all([startSite(routes), startFtpServer(), startSftpServer(), startS3Server()]);
  dir = mkdtempSync(join(tmpdir(), 'seine-remote-feeds-'));
  temp = join(dir, 'feed-temp');
  mkdirSync(temp);
  for (const [name, source] of [['quotes.ts', QUOTES_SPIDER], ['slow.ts', SLOW_SPIDER], ['many.ts', MANY_SPIDER]] as const) {
    writeFileSync(join(dir, name), source.replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, '')));
  }
}, 120_000);
afterAll(async () => {
  await Promise.all([site?.close(), ftp?.close(), sftp?.close(), s3?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const s3Settings = (): string[] => ['-s', `AWS_ENDPOINT_URL=${s3.endpoint}`, '-s', `AWS_ACCESS_KEY_ID=${S3_KEY_ID}`, '-s', `AWS_SECRET_ACCESS_KEY=${S3_SECRET}`, '-s', 'AWS_REGION_NAME=us-east-1'];
const objectFile = (key: string): string => join(s3.root, s3.bucket, `${key}._S3rver_object`);
const gunzip = (path: string): string => spawnSync('/usr/bin/python3', ['-c', 'import sys, gzip; sys.stdout.write(gzip.open(sys.argv[1]).read().decode())', path], { encoding: 'utf8' }).stdout;

describe('seine runspider -o to remote stores', () => {
  it('-o ftp://user:pass@host/path uploads the feed, logs it as Scrapy with the password masked, and counts it', async () => {
    const uri = `${ftp.uri('feeds')}/%(name)s.jsonl`;
    const result = await runSeine(['runspider', 'quotes.ts', '-o', uri, '-s', `FEED_TEMPDIR=${temp}`, ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(readFileSync(join(ftp.root, 'feeds', 'quotes.jsonl'), 'utf8')).toBe(ITEMS_JSONL);
    const masked = `${ftp.uri('feeds').replace(`:${FTP_PASSWORD}@`, ':***@')}/quotes.jsonl`;
    expect(logMessages(result.stderr)).toContain(`Stored jsonlines feed (2 items) in: ${masked}`);
    expect(result.stderr).toContain("'feedexport/success_count/FTPFeedStorage': 1");
    expect(result.stderr).not.toContain(FTP_PASSWORD);
    expect(readdirSync(temp)).toEqual([]);
  }, 60_000);

  it('-O sftp:// uploads with the key SFTP_PRIVATE_KEY names, the host checked against SFTP_HOST_FINGERPRINT', async () => {
    const result = await runSeine(
      ['runspider', 'quotes.ts', '-O', `${sftp.uri('out')}/items.jsonl`, '-s', `SFTP_PRIVATE_KEY=${sftp.keyFile}`, '-s', `SFTP_HOST_FINGERPRINT=${sftp.hostFingerprint}`, '-s', `FEED_TEMPDIR=${temp}`, ...QUIET],
      dir,
    );
    expect(result.status).toBe(0);
    expect(readFileSync(join(sftp.root, 'out', 'items.jsonl'), 'utf8')).toBe(ITEMS_JSONL);
    expect(logMessages(result.stderr)).toContain(`Stored jsonlines feed (2 items) in: ${sftp.uri('out')}/items.jsonl`);
    expect(result.stderr).toContain("'feedexport/success_count/SFTPFeedStorage': 1");
  }, 60_000);

  it('-o ftps:// uploads over explicit TLS (FTPS_VERIFY off for the test server\'s self-signed certificate)', async () => {
    const ftps = await startFtpServer({ tls: true });
    try {
      const result = await runSeine(['runspider', 'quotes.ts', '-o', `${ftps.uri('secure')}/items.jsonl`, '-s', 'FTPS_VERIFY=false', '-s', `FEED_TEMPDIR=${temp}`, ...QUIET], dir);
      expect(result.status).toBe(0);
      expect(readFileSync(join(ftps.root, 'secure', 'items.jsonl'), 'utf8')).toBe(ITEMS_JSONL);
      expect(result.stderr).toContain("'feedexport/success_count/FTPFeedStorage': 1");
      expect(result.stderr).not.toContain(FTP_PASSWORD);
    } finally {
      await ftps.close();
    }
  }, 60_000);

  it('FEEDS with GzipPlugin and batch_item_count: each batch is in the bucket while the crawl still runs', async () => {
    const feeds = JSON.stringify({ [s3.uri('batches/%(name)s-%(batch_id)d.jsonl.gz')]: { format: 'jsonlines', batch_item_count: 1, postprocessing: ['GzipPlugin'] } });
    const run = startSeine(['runspider', 'slow.ts', '-s', `FEEDS=${feeds}`, '-s', `FEED_TEMPDIR=${temp}`, ...s3Settings(), ...QUIET], dir);
    await run.waitForLog(/Stored jsonlines feed \(1 items\) in: s3:\/\/seine-test\/batches\/slow-1\.jsonl\.gz/);
    // Delivered with three slow pages still to crawl.
    expect(run.child.exitCode).toBeNull();
    expect(gunzip(objectFile('batches/slow-1.jsonl.gz'))).toBe('{"n": 1}\n');
    const result = await run.done;
    expect(result.status).toBe(0);
    for (let n = 1; n <= 4; n++) expect(gunzip(objectFile(`batches/slow-${n}.jsonl.gz`))).toBe(`{"n": ${n}}\n`);
    // The batch open at the close is empty, and stored as such (FEED_STORE_EMPTY is on by default, as local batches are).
    expect(gunzip(objectFile('batches/slow-5.jsonl.gz'))).toBe('');
    expect(result.stderr).toContain("'feedexport/success_count/S3FeedStorage': 5");
    // The credentials came from settings, and none of them is printed.
    expect(result.stderr).not.toMatch(/AWS_SECRET_ACCESS_KEY.*S3RVER/);
  }, 60_000);
});

describe('post-processing through the binary', () => {
  it('FEEDS with each built-in plugin: every file decompresses to the plain feed of the same crawl', async () => {
    const out = join(dir, 'compressed');
    mkdirSync(out);
    const feeds = JSON.stringify({
      [join(out, 'plain.jsonl')]: { format: 'jsonlines' },
      [join(out, 'items.jsonl.gz')]: { format: 'jsonlines', postprocessing: ['GzipPlugin'] },
      [join(out, 'items.jsonl.xz')]: { format: 'jsonlines', postprocessing: ['LZMAPlugin'] },
      [join(out, 'items.jsonl.bz2')]: { format: 'jsonlines', postprocessing: ['Bz2Plugin'] },
      [join(out, 'items.jsonl.br')]: { format: 'jsonlines', postprocessing: ['BrotliPlugin'] },
      [join(out, 'items.jsonl.zst')]: { format: 'jsonlines', postprocessing: ['ZstdPlugin'] },
    });
    const result = await runSeine(['runspider', 'quotes.ts', '-s', `FEEDS=${feeds}`, '-s', `FEED_TEMPDIR=${temp}`, ...QUIET], dir);
    expect(result.stderr).not.toMatch(/ ERROR: | CRITICAL: |^seine: /m);
    expect(result.status).toBe(0);
    expect(readFileSync(join(out, 'plain.jsonl'), 'utf8')).toBe(ITEMS_JSONL);
    const read = (module: string, name: string): string =>
      spawnSync('/usr/bin/python3', ['-c', `import sys, ${module}; sys.stdout.write(${module}.open(sys.argv[1]).read().decode())`, join(out, name)], { encoding: 'utf8' }).stdout;
    expect(read('gzip', 'items.jsonl.gz')).toBe(ITEMS_JSONL);
    expect(read('lzma', 'items.jsonl.xz')).toBe(ITEMS_JSONL);
    expect(read('bz2', 'items.jsonl.bz2')).toBe(ITEMS_JSONL);
    expect(brotliDecompressSync(readFileSync(join(out, 'items.jsonl.br'))).toString('utf8')).toBe(ITEMS_JSONL);
    expect(spawnSync('zstd', ['-dc', join(out, 'items.jsonl.zst')], { encoding: 'utf8' }).stdout).toBe(ITEMS_JSONL);
    expect(result.stderr).toContain("'feedexport/success_count/FileFeedStorage': 6");
    expect(readdirSync(temp)).toEqual([]);
  }, 60_000);
});

describe('Ctrl-C', () => {
  it('stops the crawl and still uploads every item scraped before it', async () => {
    const run = startSeine(['runspider', 'slow.ts', '-o', `${ftp.uri('feeds')}/sigint.jsonl`, '-s', `FEED_TEMPDIR=${temp}`, '-s', 'CONCURRENT_REQUESTS=1', ...QUIET], dir);
    await run.waitForLog(/Spider opened/);
    await new Promise((resolve) => setTimeout(resolve, 800));
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.status).toBe(0);
    const lines = readFileSync(join(ftp.root, 'feeds', 'sigint.jsonl'), 'utf8').split('\n').slice(0, -1);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines).toEqual(lines.map((_, i) => `{"n": ${i + 1}}`));
    expect(logMessages(result.stderr)).toContain(`Stored jsonlines feed (${lines.length} items) in: ${ftp.uri('feeds').replace(`:${FTP_PASSWORD}@`, ':***@')}/sigint.jsonl`);
    expect(readdirSync(temp).filter((name) => name.includes('sigint'))).toEqual([]);
  }, 60_000);
});

describe('delivery failure', () => {
  it('a store that is down: one ERROR naming the kept copy, exit status 1; the next run keeps its own copy and never overwrites the first', async () => {
    await ftp.stop();
    try {
      const uri = `${ftp.uri('feeds')}/down.jsonl`;
      const first = await runSeine(['runspider', 'quotes.ts', '-o', uri, '-s', `FEED_TEMPDIR=${temp}`, ...QUIET], dir);
      expect(first.status).toBe(1);
      const errors = first.stderr.split('\n').filter((line) => / ERROR: /.test(line)).map((line) => logMessages(line)[0]!);
      expect(errors).toHaveLength(1);
      const kept = readdirSync(temp);
      expect(kept).toHaveLength(1);
      expect(errors[0]).toMatch(new RegExp(`^Error storing jsonlines feed \\(2 items\\) in: ftp://seine:\\*\\*\\*@127\\.0\\.0\\.1:${ftp.port}/feeds/down\\.jsonl: .+; the feed is kept in ${join(temp, kept[0]!).replace(/[.]/g, '\\.')} \\(no run overwrites it: deliver it from there\\)$`));
      expect(first.stderr).toContain("'feedexport/failed_count/FTPFeedStorage': 1");
      expect(first.stderr).not.toContain(FTP_PASSWORD);
      expect(readFileSync(join(temp, kept[0]!), 'utf8')).toBe(ITEMS_JSONL);

      const second = await runSeine(['runspider', 'quotes.ts', '-o', uri, '-s', `FEED_TEMPDIR=${temp}`, ...QUIET], dir);
      expect(second.status).toBe(1);
      expect(readdirSync(temp)).toHaveLength(2);
      expect(readFileSync(join(temp, kept[0]!), 'utf8')).toBe(ITEMS_JSONL);
    } finally {
      await ftp.restart();
    }
    expect(existsSync(join(ftp.root, 'feeds', 'down.jsonl'))).toBe(false);
  }, 60_000);

  it('a full disk under FEED_TEMPDIR stops the feed, and what was written is delivered whole: nothing exported is lost', async () => {
    const uri = `${ftp.uri('feeds')}/full.jsonl`;
    const fullTemp = join(dir, 'full-temp');
    mkdirSync(fullTemp);
    const result = await runLimited(48, ['runspider', 'many.ts', '-o', uri, '-s', `FEED_TEMPDIR=${fullTemp}`, ...QUIET], dir);
    expect(result.status).toBe(1);
    const delivered = readFileSync(join(ftp.root, 'feeds', 'full.jsonl'), 'utf8');
    const lines = delivered.split('\n').slice(0, -1);
    // Whole items only, in order, up to the limit: the next one would not have fitted.
    const next = `{"i": ${lines.length}, "text": "${'x'.repeat(100)}"}\n`;
    expect(Buffer.byteLength(delivered)).toBeLessThanOrEqual(48 * 1024);
    expect(Buffer.byteLength(delivered) + next.length).toBeGreaterThan(48 * 1024);
    lines.forEach((line, i) => expect(JSON.parse(line)).toEqual({ i, text: 'x'.repeat(100) }));
    const messages = logMessages(result.stderr);
    const masked = uri.replace(`:${FTP_PASSWORD}@`, ':***@');
    expect(messages).toContain(
      `Feed ${masked} could not be written (EFBIG: file too large): stopped writing it; the ${lines.length} items written before are delivered; no feed is left, so the crawl stops`,
    );
    expect(messages).toContain(`Stored jsonlines feed (${lines.length} items) in: ${masked}`);
    expect(result.stderr).toContain("'feedexport/failed_count/FTPFeedStorage': 1");
    expect(readdirSync(fullTemp)).toEqual([]);
  }, 60_000);
});
