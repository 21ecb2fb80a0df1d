import { Writable } from 'node:stream';
import type { Headers } from '../../http/headers.js';
import type { TextWriter } from '../../log/sink.js';
import { defineCommand } from '../command.js';
import { fetchUrl, withFetchOptions, type FetchUrlArgs } from '../fetch-url.js';

/** The body as bytes where the output is a stream (a binary body stays intact); decoded text for other writers. */
function writeBytes(out: TextWriter, bytes: Buffer): void {
  if (out instanceof Writable) out.write(bytes);
  else out.write(bytes.toString('utf8'));
}

function writeHeaders(out: TextWriter, headers: Headers, prefix: string): void {
  for (const [name, values] of headers.entries()) {
    for (const value of values) writeBytes(out, Buffer.from(`${prefix} ${name}: ${value}\n`, 'latin1'));
  }
}

/**
 * `seine fetch <url>`: downloads the URL with seine's downloader, through
 * the spider that handles it, and prints the body (or, with --headers, the
 * request's and the response's headers). Error statuses are printed too;
 * redirects are followed unless --no-redirect.
 */
export const fetchCommand = defineCommand<FetchUrlArgs & { headers?: boolean }>({
  name: 'fetch',
  positionals: '<url>',
  description: 'Fetch a URL using the seine downloader',
  builder: (parser) =>
    withFetchOptions(parser).option('headers', { type: 'boolean', describe: 'print the HTTP headers of the request (>) and the response (<) instead of the body' }) as never,
  async handler(context) {
    const { request, response } = await fetchUrl(context, 'fetch');
    const { stdout } = context;
    if (context.args.headers === true) {
      writeHeaders(stdout, request.headers, '>');
      stdout.write('>\n');
      writeHeaders(stdout, response.headers, '<');
    } else {
      writeBytes(stdout, Buffer.concat([response.body, Buffer.from('\n')]));
    }
    return 0;
  },
});
