/**
 * Files that can hold secrets or crawl state are the user's alone
 * (docs/security.md, "Files"): the helpers of src/private-files.ts and each
 * place that writes such files, checked with the modes fs.statSync reads.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { SpiderState } from '../src/extensions/spider-state.js';
import { Request } from '../src/http/request.js';
import { Response } from '../src/http/response.js';
import type { LogEvent } from '../src/log/log-event.js';
import { attachLogSink, logSinkOptions } from '../src/log/sink.js';
import { FilesystemCacheStorage } from '../src/middlewares/downloader/http-cache-filesystem-storage.js';
import { makePrivateDir, makePrivateDirSync, openPrivateFileSync, writePrivateFile, writePrivateFileSync } from '../src/private-files.js';
import { DiskPriorityQueue } from '../src/scheduler/disk-priority-queue.js';
import { JobdirDupeFilter } from '../src/scheduler/jobdir-dupe-filter.js';
import { Settings } from '../src/settings/settings.js';
import { Spider } from '../src/contracts/spider.js';

const mode = (path: string): number => statSync(path).mode & 0o777;

/** Every file and folder under `root` (itself included) with its mode, as `path: 0NNN`. */
function modesUnder(root: string): string[] {
  const out = [`.: 0${mode(root).toString(8)}`];
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      out.push(`${prefix}${name}: 0${mode(path).toString(8)}`);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
    }
  };
  walk(root, '');
  return out;
}

class StateSpider extends Spider {
  static override name = 'modes';
}

let dir: string;
let umask: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-modes-'));
  // The most permissive umask: what seine creates must still be the user's alone.
  umask = process.umask(0);
});

afterEach(() => {
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

describe('src/private-files.ts under umask 000', () => {
  it('creates every missing folder of a path 0700 and leaves an existing one as it is', async () => {
    mkdirSync(join(dir, 'shared'), { mode: 0o755 });
    makePrivateDirSync(join(dir, 'shared', 'a', 'b'));
    await makePrivateDir(join(dir, 'shared', 'c', 'd'));
    expect([join('shared'), join('shared', 'a'), join('shared', 'a', 'b'), join('shared', 'c', 'd')].map((path) => mode(join(dir, path)))).toEqual([0o755, 0o700, 0o700, 0o700]);
  });

  it('creates files 0600; tightens an existing one only when asked (seine\'s own state files), and always when it rewrites one', async () => {
    closeSync(openPrivateFileSync(join(dir, 'new'), 'a'));
    writeFileSync(join(dir, 'kept'), '', { mode: 0o644 });
    closeSync(openPrivateFileSync(join(dir, 'kept'), 'a'));
    writeFileSync(join(dir, 'tightened'), '', { mode: 0o644 });
    closeSync(openPrivateFileSync(join(dir, 'tightened'), 'a', { tighten: true }));
    writeFileSync(join(dir, 'rewritten'), '', { mode: 0o666 });
    writePrivateFileSync(join(dir, 'rewritten'), 'x');
    writeFileSync(join(dir, 'rewritten-async'), '', { mode: 0o666 });
    await writePrivateFile(join(dir, 'rewritten-async'), 'x');
    expect(['new', 'kept', 'tightened', 'rewritten', 'rewritten-async'].map((name) => mode(join(dir, name)))).toEqual([0o600, 0o644, 0o600, 0o600, 0o600]);
  });
});

describe('LOG_FILE under umask 000', () => {
  it('is created 0600 (it holds the generated telnet password)', () => {
    const file = join(dir, 'logs.txt');
    const events = new Subject<LogEvent>();
    const sink = attachLogSink(events, logSinkOptions(new Settings({ LOG_FILE: file })), process.stderr);
    events.next({ time: new Date(), logger: 'seine.extensions.telnet', level: 'INFO', message: 'Telnet Password: 0123456789abcdef' });
    sink.unsubscribe();
    expect(mode(file)).toBe(0o600);
  });

  it('keeps the mode of a LOG_FILE that exists (a log its owner shares on purpose)', () => {
    const file = join(dir, 'shared.log');
    writeFileSync(file, '', { mode: 0o640 });
    attachLogSink(new Subject<LogEvent>(), logSinkOptions(new Settings({ LOG_FILE: file, LOG_FILE_APPEND: true })), process.stderr).unsubscribe();
    expect(mode(file)).toBe(0o640);
  });
});

describe('JOBDIR under umask 000', () => {
  it('requests.seen, requests.queue/ and spider.state are 0600 files in 0700 folders', () => {
    const jobdir = join(dir, 'crawls', 'run-1');
    const spider = new StateSpider();
    const dupes = new JobdirDupeFilter((request) => request.url, jobdir);
    dupes.seen(new Request('http://127.0.0.1/a'));
    dupes.close();
    const queue = new DiskPriorityQueue({ dir: join(jobdir, 'requests.queue'), spider });
    queue.push(new Request('http://127.0.0.1/b'));
    queue.closeSync();
    const state = new SpiderState(jobdir);
    spider.state = { pages: 1 };
    state.closeSpider(spider);
    expect(modesUnder(join(dir, 'crawls'))).toEqual([
      '.: 0700',
      'run-1: 0700',
      'run-1/requests.queue: 0700',
      'run-1/requests.queue/requests.jsonl: 0600',
      'run-1/requests.seen: 0600',
      'run-1/spider.state: 0600',
    ]);
  });

  it("tightens the files of a JOBDIR an older seine left 0644 when it opens them (the folder's mode is kept)", () => {
    const jobdir = join(dir, 'old');
    mkdirSync(join(jobdir, 'requests.queue'), { recursive: true, mode: 0o755 });
    writeFileSync(join(jobdir, 'requests.seen'), '', { mode: 0o644 });
    writeFileSync(join(jobdir, 'requests.queue', 'requests.jsonl'), '', { mode: 0o644 });
    new JobdirDupeFilter((request) => request.url, jobdir).close();
    new DiskPriorityQueue({ dir: join(jobdir, 'requests.queue'), spider: new StateSpider() }).closeSync();
    expect(modesUnder(jobdir)).toEqual(['.: 0755', 'requests.queue: 0755', 'requests.queue/requests.jsonl: 0600', 'requests.seen: 0600']);
  });
});

describe('HTTP cache under umask 000', () => {
  it('stores entries as 0600 files in 0700 folders, the cache folder included', async () => {
    const cacheDir = join(dir, '.scrapy', 'httpcache');
    const storage = new FilesystemCacheStorage({ dir: cacheDir, fingerprint: () => 'ab12' });
    const request = new Request('http://127.0.0.1/a');
    await storage.storeResponse(new StateSpider(), request, new Response({ url: request.url, status: 200, body: Buffer.from('hi'), request }));
    expect(modesUnder(join(dir, '.scrapy'))).toEqual([
      '.: 0700',
      'httpcache: 0700',
      'httpcache/modes: 0700',
      'httpcache/modes/ab: 0700',
      'httpcache/modes/ab/ab12: 0700',
      'httpcache/modes/ab/ab12/meta: 0600',
      'httpcache/modes/ab/ab12/request_body: 0600',
      'httpcache/modes/ab/ab12/request_headers: 0600',
      'httpcache/modes/ab/ab12/response_body: 0600',
      'httpcache/modes/ab/ab12/response_headers: 0600',
    ]);
  });

  it('tightens the files of an entry it replaces', async () => {
    const storage = new FilesystemCacheStorage({ dir, fingerprint: () => 'cd34' });
    const entry = join(dir, 'modes', 'cd', 'cd34');
    mkdirSync(entry, { recursive: true });
    writeFileSync(join(entry, 'response_body'), 'old', { mode: 0o644 });
    chmodSync(join(entry, 'response_body'), 0o644);
    const request = new Request('http://127.0.0.1/a');
    await storage.storeResponse(new StateSpider(), request, new Response({ url: request.url, status: 200, body: Buffer.from('new'), request }));
    expect(mode(join(entry, 'response_body'))).toBe(0o600);
  });
});
