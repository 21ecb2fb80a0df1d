/**
 * `seine bench` end to end: the real binary (bin/seine.js, running dist/) in
 * a child process; the bench site is the one the command itself starts on
 * 127.0.0.1. CLOSESPIDER_TIMEOUT=2 keeps the run short and shows that -s
 * overrides the command's ten-second default.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchCommand } from '../../src/cli/commands/bench.js';
import { ensureBuilt, logMessages, runSeine, type SeineRun } from './fixtures/run-seine.js';

let dir: string;
let run: SeineRun;
let wallSeconds: number;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'seine-bench-'));
  const started = Date.now();
  run = await runSeine(['bench', '-s', 'CLOSESPIDER_TIMEOUT=2', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
  wallSeconds = (Date.now() - started) / 1000;
}, 120_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The LogStats lines: `[time in seconds, pages crawled, items scraped]`. */
function progress(stderr: string): Array<[number, number, number]> {
  const lines: Array<[number, number, number]> = [];
  for (const line of stderr.split('\n')) {
    const match = /^\d{4}-\d\d-\d\d (\d\d):(\d\d):(\d\d) \[seine\.extensions\.logstats\] INFO: Crawled (\d+) pages \(at \d+ pages\/min\), scraped (\d+) items \(at 0 items\/min\)$/.exec(line);
    if (match !== null) lines.push([Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]), Number(match[4]), Number(match[5])]);
  }
  return lines;
}

describe('seine bench', () => {
  it("has Scrapy's bench defaults: INFO log, progress every second, ten seconds", () => {
    expect(benchCommand.defaultSettings).toEqual({ LOG_LEVEL: 'INFO', LOGSTATS_INTERVAL: 1, CLOSESPIDER_TIMEOUT: 10 });
  });

  it('exits 0 soon after the CLOSESPIDER_TIMEOUT given with -s, with the server closed', () => {
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    // Two seconds of crawling plus start-up: the process does not hang on the server or its sockets.
    expect(wallSeconds).toBeLessThan(12);
    expect(logMessages(run.stderr)).toContain('Spider closed (closespider_timeout)');
  });

  it('logs progress every second, the page count growing, no items scraped', () => {
    const lines = progress(run.stderr);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]![1]).toBe(0);
    for (let i = 1; i < lines.length; i++) {
      const [time, pages, items] = lines[i]!;
      // LogStats ticks on wall-clock seconds; a loaded machine (the bench keeps the CPU busy) may stretch a tick; seconds are truncated in the log.
      expect(time - lines[i - 1]![0]).toBeLessThanOrEqual(3);
      expect(pages).toBeGreaterThan(lines[i - 1]![1]);
      expect(items).toBe(0);
    }
  });

  it('dumps the stats with finish_reason closespider_timeout and no items', () => {
    expect(run.stderr).toContain(" 'finish_reason': 'closespider_timeout',\n");
    expect(run.stderr).toMatch(/ 'response_received_count': [1-9]\d*,\n/);
    expect(run.stderr).not.toContain('item_scraped_count');
    expect(run.stderr).not.toMatch(/\] (ERROR|WARNING):/);
  });
});
