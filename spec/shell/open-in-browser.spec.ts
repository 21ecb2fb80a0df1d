/**
 * view(response): the file it writes (the `<base>` tag, the bytes kept, the
 * extension, the file left in place) and the browser it starts (BROWSER
 * with and without %s, the platform opener, the error without one). The
 * "browser" in these tests is `true`, or a script that records its argv.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Response } from '../../src/http/response.js';
import { openInBrowser } from '../../src/shell/open-in-browser.js';
import { NoBrowserError, NotViewableResponseError } from '../../src/shell/view-errors.js';

const URL_ = 'http://example.com/shop/page.html';
const BASE = `<base href="${URL_}">`;

const folders: string[] = [];
function newFolder(prefix = 'seine-view-spec-'): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function html(body: string | Buffer, contentType = 'text/html', url = URL_): Response {
  return new Response({ url, headers: { 'Content-Type': contentType }, body });
}

/** Views `response` with `true` as the browser; returns the one file written and its bytes. */
function view(response: Response): { name: string; path: string; bytes: Buffer } {
  const folder = newFolder();
  expect(openInBrowser(response, { tmpdir: folder, env: { PATH: process.env.PATH, BROWSER: 'true' } })).toBe(true);
  const names = readdirSync(folder);
  expect(names).toHaveLength(1);
  const path = join(folder, names[0]!);
  return { name: names[0]!, path, bytes: readFileSync(path) };
}

function viewed(body: string | Buffer, contentType?: string, url?: string): string {
  return view(html(body, contentType, url)).bytes.toString('latin1');
}

describe('the <base> tag view() adds to an HTML page', () => {
  it('goes right after a <head> tag with attributes, even one holding ">" in quotes', () => {
    const page = '<!DOCTYPE html><html lang="en"><head data-x="a>b" class=top><title>T</title><link rel=stylesheet href=s.css></head><body></body></html>';
    expect(viewed(page)).toBe(
      `<!DOCTYPE html><html lang="en"><head data-x="a>b" class=top>${BASE}<title>T</title><link rel=stylesheet href=s.css></head><body></body></html>`,
    );
  });

  it('is not put after <header>', () => {
    expect(viewed('<html><body><header>Menu</header><p>x</p></body></html>')).toBe(`<html>${BASE}<body><header>Menu</header><p>x</p></body></html>`);
    expect(viewed('<header>Menu</header><head><title>T</title></head>')).toBe(`<header>Menu</header><head>${BASE}<title>T</title></head>`);
  });

  it('ignores <head> and <base> inside a comment or a script, and keeps the comment', () => {
    const page = '<!-- old layout: <head><base href="/old/"> --><html><head><script>var s = "<head>";</script></head></html>';
    expect(viewed(page)).toBe(`<!-- old layout: <head><base href="/old/"> --><html><head>${BASE}<script>var s = "<head>";</script></head></html>`);
    const scriptFirst = '<script>document.write("<head>")</script><html><head></head></html>';
    expect(viewed(scriptFirst)).toBe(`<script>document.write("<head>")</script><html><head>${BASE}</head></html>`);
  });

  it('goes after the <html> tag when there is no <head> (the parser makes the head around it)', () => {
    expect(viewed('<html lang=fr><body><a href="next.html">n</a></body></html>')).toBe(`<html lang=fr>${BASE}<body><a href="next.html">n</a></body></html>`);
  });

  it('goes after the doctype, or at the very start, when there is no <html> either', () => {
    expect(viewed('<!doctype html>\n<title>T</title><p>x')).toBe(`<!doctype html>${BASE}\n<title>T</title><p>x`);
    expect(viewed('<p>Hello <a href="b.html">b</a></p>')).toBe(`${BASE}<p>Hello <a href="b.html">b</a></p>`);
    const bom = Buffer.from('\ufeff<p>x</p>', 'utf8');
    expect(view(html(bom)).bytes).toEqual(Buffer.concat([bom.subarray(0, 3), Buffer.from(BASE), bom.subarray(3)]));
  });

  it('is not added when the page has a <base href> with an absolute URL: the file is the body', () => {
    const page = Buffer.from('<html><head><BASE HREF="https://cdn.example.net/v2/"><title>T</title></head></html>');
    expect(view(html(page)).bytes).toEqual(page);
  });

  it('turns a relative <base href> of the page into an absolute one placed before it', () => {
    expect(viewed('<html><head><base href="/static/"></head></html>')).toBe(
      '<html><head><base href="http://example.com/static/"><base href="/static/"></head></html>',
    );
    expect(viewed('<html><head><base target="_blank"></head></html>')).toBe(`<html><head>${BASE}<base target="_blank"></head></html>`);
  });

  it('escapes the URL for an attribute', () => {
    expect(viewed('<head></head>', 'text/html', 'http://example.com/s?a=1&b="2"')).toBe(
      '<head><base href="http://example.com/s?a=1&amp;b=&quot;2&quot;"></head>',
    );
  });

  it('keeps every other byte of a page in another encoding than UTF-8', () => {
    const head = Buffer.from('<html><head><meta charset="shift_jis">', 'latin1');
    const tail = Buffer.concat([Buffer.from('<title>', 'latin1'), Buffer.from([0x93, 0xfa, 0x96, 0x7b]), Buffer.from('</title></head><p>caf\xe9\x81\xff</p></html>', 'latin1')]);
    expect(view(html(Buffer.concat([head, tail]))).bytes).toEqual(Buffer.concat([head.subarray(0, 12), Buffer.from(BASE), head.subarray(12), tail]));
  });

  it('writes down an encoding that came only from Content-Type, which the file loses', () => {
    const body = Buffer.concat([Buffer.from('<html><head><title>', 'latin1'), Buffer.from([0x93, 0xfa, 0x96, 0x7b]), Buffer.from('</title></head></html>')]);
    const bytes = view(html(body, 'text/html; charset=Shift_JIS')).bytes;
    expect(bytes).toEqual(Buffer.concat([body.subarray(0, 12), Buffer.from(`${BASE}<meta charset="shift_jis">`), body.subarray(12)]));
    // A page that declares the same encoding itself gets only the base.
    expect(viewed('<head><meta charset="utf-8"></head>', 'text/html; charset=utf-8')).toBe(`<head>${BASE}<meta charset="utf-8"></head>`);
  });

  it('writes a UTF-16 page back as UTF-16 with the tag in it', () => {
    const body = Buffer.from('\ufeff<html><head><title>é</title></head></html>', 'utf16le');
    expect(view(html(body)).bytes).toEqual(Buffer.from(`\ufeff<html><head>${BASE}<title>é</title></head></html>`, 'utf16le'));
  });
});

describe('the file view() writes', () => {
  it('is seine-view-XXXX.html, left in place after the browser started', async () => {
    const { name, path } = view(html('<html><head></head></html>'));
    expect(name).toMatch(/^seine-view-[0-9a-f]{8}\.html$/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(path)).toBe(true);
  });

  it('is a .txt file with the body unchanged for text, JSON and XML responses', () => {
    for (const [contentType, body] of [['text/plain; charset=latin1', 'caf\xe9'], ['application/json', '{"a": 1}'], ['application/rss+xml', '<?xml version="1.0"?><rss/>']] as const) {
      const { name, bytes } = view(new Response({ url: 'http://example.com/x', headers: { 'Content-Type': contentType }, body: Buffer.from(body, 'latin1') }));
      expect(name).toMatch(/^seine-view-[0-9a-f]{8}\.txt$/);
      expect(bytes).toEqual(Buffer.from(body, 'latin1'));
    }
  });

  it('is not written for a binary response, which view() refuses with a clear error', () => {
    const folder = newFolder();
    const png = new Response({ url: 'http://example.com/logo.png', headers: { 'Content-Type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) });
    const call = (): boolean => openInBrowser(png, { tmpdir: folder, env: { PATH: process.env.PATH, BROWSER: 'true' } });
    expect(call).toThrow(NotViewableResponseError);
    expect(call).toThrow(
      'view() shows HTML and text responses only, but http://example.com/logo.png is binary (Content-Type: image/png); ' +
        'write response.body to a file to open it with another program',
    );
    expect(readdirSync(folder)).toEqual([]);
  });
});

/** A "browser" that writes its arguments, one a line, to `<script>.args` once it has them all. */
function recordingBrowser(folder: string): { script: string; args: () => Promise<string[]> } {
  const script = join(folder, 'record argv');
  writeFileSync(script, '#!/bin/sh\nprintf \'%s\\n\' "$@" > "$0.args.part" && mv "$0.args.part" "$0.args"\n');
  chmodSync(script, 0o755);
  const args = async (): Promise<string[]> => {
    const deadline = Date.now() + 10_000;
    while (!existsSync(`${script}.args`)) {
      if (Date.now() > deadline) throw new Error(`the browser script did not run: no ${script}.args`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return readFileSync(`${script}.args`, 'utf8').split('\n').slice(0, -1);
  };
  return { script, args };
}

describe('the browser view() starts', () => {
  it('is BROWSER with the file URL added as its last argument when the command has no %s', async () => {
    const folder = newFolder('seine view spec ');
    const browser = recordingBrowser(folder);
    const pages = newFolder();
    openInBrowser(html('<html><head></head><body>hi</body></html>'), { tmpdir: pages, env: { PATH: process.env.PATH, BROWSER: `'${browser.script}' --new-window` } });
    const args = await browser.args();
    expect(args).toHaveLength(2);
    expect(args[0]).toBe('--new-window');
    const [page] = readdirSync(pages);
    expect(args[1]).toBe(pathToFileURL(join(pages, page!)).href);
    expect(readFileSync(fileURLToPath(args[1]!), 'utf8')).toBe(`<html><head>${BASE}</head><body>hi</body></html>`);
  });

  it('puts the URL where %s stands, skips BROWSER entries whose program is missing, and writes to os.tmpdir() by default', async () => {
    const folder = newFolder('seine view spec ');
    const browser = recordingBrowser(folder);
    const BROWSER = `no-such-browser-for-seine --x %s:"${browser.script}" --url=%s --flag`;
    openInBrowser(html('<p>x</p>'), { env: { PATH: process.env.PATH, BROWSER } });
    const args = await browser.args();
    expect(args).toHaveLength(2);
    expect(args[0]).toMatch(/^--url=file:\/\/\/.*\/seine-view-[0-9a-f]{8}\.html$/);
    expect(args[1]).toBe('--flag');
    const file = fileURLToPath(args[0]!.slice('--url='.length));
    folders.push(file);
    expect(file.startsWith(join(tmpdir(), 'seine-view-'))).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(`${BASE}<p>x</p>`);
  });

  it('survives a browser program that cannot be started', async () => {
    const folder = newFolder();
    const broken = join(folder, 'broken-browser');
    writeFileSync(broken, '#!/no/such/interpreter\n');
    chmodSync(broken, 0o755);
    expect(openInBrowser(html('<p>x</p>'), { tmpdir: folder, env: { PATH: process.env.PATH, BROWSER: broken } })).toBe(true);
    // The spawn error arrives after view() returned; without a listener it would end the process.
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  it('cannot be found: the error says to set BROWSER and where the file is', () => {
    const folder = newFolder();
    const emptyPath = newFolder();
    let error: unknown;
    try {
      openInBrowser(html('<p>x</p>'), { tmpdir: folder, platform: 'linux', env: { PATH: emptyPath, BROWSER: 'firefox --new-tab' } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NoBrowserError);
    const [name] = readdirSync(folder);
    const file = join(folder, name!);
    expect((error as NoBrowserError).file).toBe(file);
    expect((error as Error).message).toBe(
      `No browser found to open ${file} (tried BROWSER 'firefox --new-tab', xdg-open): set BROWSER to a browser command, ` +
        "e.g. BROWSER=firefox or BROWSER='chromium %s', or open the file yourself",
    );
    expect(readFileSync(file, 'utf8')).toBe(`${BASE}<p>x</p>`);
    expect(() => openInBrowser(html('<p>x</p>'), { tmpdir: folder, platform: 'darwin', env: { PATH: emptyPath } })).toThrow(/\(tried open\): set BROWSER/);
  });
});
