/**
 * Values typed in the console reach seine as they do from a spider. The
 * console evaluates in a vm context whose RegExp, Object, Date, Error and
 * Uint8Array are not seine's, so `instanceof` checks failed on them
 * (`.re(/\d+/)` said "needs … a RegExp, got a RegExp"). Driven through the
 * real shell, in both consoles.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../cli/fixtures/run-seine.js';
import { runPiped } from './fixtures/piped.js';

let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'seine-console-realm-'));
  writeFileSync(join(dir, 'page.html'), '<html><head><title>Price 42 and 7</title></head><body><a href="next.html" data-n="5">Link 12</a></body></html>');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LINES = [
  'response.css("title::text").re(/\\d+/)',
  'response.css("title::text").reFirst(new RegExp("(\\\\d+) and"))',
  'response.css("title::text")[0].re(/(\\d+) and (\\d+)/)',
  'response.xpath("//a[@data-n=$n]/text()", { n: "5" }).get()',
  'response.xpath("//a/text()", null, { namespaces: { x: "urn:x" } }).get()',
  'new seine.LinkExtractor({ allow: /next/ }).extractLinks(response).length',
  'new seine.LinkExtractor({ allow: [/next/, "none"] }).extractLinks(response).length',
  'new seine.Response({ url: "http://x.test/", body: new Uint8Array([60, 112, 62, 104, 105]) }).css("p::text").get()',
  'new seine.Request("http://x.test/", { method: "POST", body: new Uint8Array([104, 105]) }).body',
  'const exporter = new seine.JsonLinesExporter({ encoding: null, fields: null, indent: null, feed: "console" })',
  'exporter.exportItem({ when: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), tags: new Set(["a"]), raw: new Uint8Array([104, 105]), m: new Map([["k", 1]]) }).toString()',
  'spider.logger.error("a console error", { error: new Error("typed in the console") })',
  '',
].join('\n');

describe.each(['ts', 'node'])('the %s console', (kind) => {
  it('passes RegExps, objects, arrays, Uint8Arrays, Dates and Errors typed there to seine as a spider would', async () => {
    const run = await runPiped(['shell', './page.html', '-s', 'LOG_LEVEL=INFO'], LINES, { cwd: dir, env: { HOME: dir, SEINE_SHELL: kind } });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe([
      "[ '42', '7' ]", "'42'", "[ '42', '7' ]", "'Link 12'", "'Link 12'", '1', '1', "'hi'", '<Buffer 68 69>',
      `'{"when": "2024-01-02 03:04:05", "tags": ["a"], "raw": "hi", "m": {"k": 1}}\\n'`,
      '',
    ].join('\n'));
    // The logged Error keeps its stack, as a spider's does.
    expect(run.stderr).toMatch(/ERROR: a console error\nError: typed in the console\n {4}at /);
  });
});
