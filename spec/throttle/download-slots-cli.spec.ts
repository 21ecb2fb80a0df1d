import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, runSeine } from '../cli/fixtures/run-seine.js';

let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'seine-download-slots-'));
  writeFileSync(
    join(dir, 'one.ts'),
    "import { Spider } from 'seine';\nexport default class One extends Spider {\n  static name = 'one';\n  startUrls = ['http://127.0.0.1:1/'];\n  parse() {}\n}\n",
  );
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a bad DOWNLOAD_SLOTS through the binary', () => {
  it.each([
    ['{"a.com":{"rate":"30/min"}}', `seine: Setting DOWNLOAD_SLOTS (from the command line): slot "a.com" has rate "30/min": write 'N/s', 'N/m' or 'N/h' with N > 0 (e.g. '30/m': at most 30 requests a minute, one every 2 s)`],
    ['{"a.com":{"delay":-1}}', 'seine: Setting DOWNLOAD_SLOTS (from the command line): slot "a.com" has delay -1: write a number of seconds of 0 or more between two requests of the slot (e.g. 1.5)'],
    ['{"a.com":{"rate":"2/s","burst":3}}', 'seine: Setting DOWNLOAD_SLOTS (from the command line): slot "a.com" has "burst", which seine does not know: use "concurrency", "delay", "randomize_delay", "rate"'],
  ])('-s DOWNLOAD_SLOTS=%s: exit status 1, the one line on stderr (no stack)', async (value, line) => {
    const run = await runSeine(['runspider', 'one.ts', '-s', `DOWNLOAD_SLOTS=${value}`, '-s', 'TELNETCONSOLE_ENABLED=false', '--nolog'], dir);
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(line);
  }, 30_000);
});
