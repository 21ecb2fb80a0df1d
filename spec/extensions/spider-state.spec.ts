import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotConfigured } from '../../src/contracts/control-flow.js';
import { SpiderState } from '../../src/extensions/spider-state.js';
import { JobdirError } from '../../src/scheduler/jobdir-errors.js';
import { Spider } from '../../src/contracts/spider.js';
import { fakeCrawler, TestSpider } from '../helpers/fake-crawler.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-spider-state-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('SpiderState', () => {
  it('is not configured without JOBDIR', () => {
    expect(() => SpiderState.fromCrawler(fakeCrawler())).toThrow(NotConfigured);
    expect(() => SpiderState.fromCrawler(fakeCrawler({ JOBDIR: '' }))).toThrow(NotConfigured);
  });

  it('starts with {} and saves spider.state as JSON when the spider closes; the next run loads it', () => {
    const jobdir = join(dir, 'job');
    const first = new TestSpider();
    const state = SpiderState.fromCrawler(fakeCrawler({ JOBDIR: jobdir }, first));
    state.openSpider(first);
    expect(first.state).toEqual({});
    first.state['count'] = 3;
    first.state['seen'] = ['a', 'b'];
    state.closeSpider(first);
    expect(JSON.parse(readFileSync(join(jobdir, 'spider.state'), 'utf8'))).toEqual({ count: 3, seen: ['a', 'b'] });

    const second = new TestSpider();
    SpiderState.fromCrawler(fakeCrawler({ JOBDIR: jobdir }, second)).openSpider(second);
    expect(second.state).toEqual({ count: 3, seen: ['a', 'b'] });
  });

  it('a spider has an empty state without JOBDIR', () => {
    expect(new Spider().state).toEqual({});
  });

  it('refuses to open on a damaged state file', () => {
    writeFileSync(join(dir, 'spider.state'), '{"count": ');
    const spider = new TestSpider();
    const state = new SpiderState(dir);
    expect(() => state.openSpider(spider)).toThrow(JobdirError);
    expect(() => state.openSpider(spider)).toThrow(new RegExp(`^Cannot read the spider state ${join(dir, 'spider.state')}: .* \\(fix or delete the file\\)$`));
  });

  it('logs a state JSON cannot hold as an ERROR, keeps the previous file, and lets the spider close', () => {
    writeFileSync(join(dir, 'spider.state'), '{"count":1}\n');
    const spider = new TestSpider();
    const crawler = fakeCrawler({ JOBDIR: dir }, spider);
    const state = SpiderState.fromCrawler(crawler);
    state.openSpider(spider);
    spider.state['big'] = 1n;
    state.closeSpider(spider);
    expect(crawler.textLines()).toEqual([
      `ERROR [seine.extensions.spiderstate] Cannot save spider.state to ${join(dir, 'spider.state')}: Do not know how to serialize a BigInt (keep JSON values in spider.state)`,
    ]);
    expect(readFileSync(join(dir, 'spider.state'), 'utf8')).toBe('{"count":1}\n');
  });
});
