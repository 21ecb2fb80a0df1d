/**
 * The shell's `view(response)`: the response written to a temp file and
 * opened in the local browser, as Scrapy's open_in_browser does. An HTML
 * page gets a `<base href>` (src/shell/base-tag.ts) so its relative
 * stylesheets, scripts, images and links reach the site; a text response
 * (JSON, XML, plain text) is written as a `.txt` file; a binary one is
 * refused. The browser is chosen as Python's webbrowser chooses it
 * (src/shell/browser-command.ts).
 *
 * The file is left in place: the browser reads it after view() returns, at
 * a time no one here knows, and the user may want to open it again. The
 * browser runs detached with its output ignored, so the shell never waits
 * for it and closing the shell leaves it open.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { tmpdir as systemTmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Response } from '../http/response.js';
import { withBaseTag } from './base-tag.js';
import { browserCommand } from './browser-command.js';
import { NoBrowserError, NotViewableResponseError } from './view-errors.js';

export interface OpenInBrowserOptions {
  /** Where BROWSER and PATH are read, and the browser's environment (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Whose opener to use when BROWSER names none (default: process.platform). */
  platform?: NodeJS.Platform;
  /** The folder for the page file (default: os.tmpdir()). */
  tmpdir?: string;
}

/** A new file `seine-view-XXXXXXXX<extension>` holding `bytes`; 'wx' makes it ours alone, as mkstemp does. */
function writeNewFile(folder: string, extension: string, bytes: Buffer): string {
  for (;;) {
    const file = join(folder, `seine-view-${randomBytes(4).toString('hex')}${extension}`);
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    try {
      writeSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    return file;
  }
}

/**
 * Writes `response` to a temp file and opens it in the browser; returns true
 * once the browser is started. Throws NotViewableResponseError for a binary
 * response and NoBrowserError (naming the file) when no browser is found.
 */
export function openInBrowser(response: Response, options: OpenInBrowserOptions = {}): boolean {
  const kind = response.kind;
  if (kind === 'binary') throw new NotViewableResponseError(response.url, response.headers.get('content-type'));
  const bytes = kind === 'html' ? withBaseTag(response) : response.body;
  const file = writeNewFile(options.tmpdir ?? systemTmpdir(), kind === 'html' ? '.html' : '.txt', bytes);

  const env = options.env ?? process.env;
  const { command, tried } = browserCommand(pathToFileURL(file).href, env, options.platform ?? process.platform);
  if (command === null) throw new NoBrowserError(file, tried);
  const child = spawn(command.program, command.args, { detached: true, stdio: 'ignore', env: { ...env } });
  // The program was found, so a failure here is rare (a script with a bad shebang, say); it must not end the shell.
  child.on('error', () => {});
  child.unref();
  return true;
}
