/**
 * `Request.fromCurl(command)` and `request.toCurl()`: Scrapy's
 * curl_to_request_kwargs, for the commands browsers' developer tools copy
 * ("Copy as cURL"), and its inverse. Scrapy reads -H, -X, -d/--data/
 * --data-raw and -u, ignores --compressed, -s, -v and -#, and warns about
 * the rest; seine also reads -b/--cookie and --data-binary/--data-ascii
 * (Chrome and Firefox write them), and several -d are joined with '&' as
 * curl joins them (Scrapy keeps the last).
 */
import { SeineError } from '../errors/seine-error.js';
import { shellQuote, shellWordBytes, ShellWordsError } from './shell-words.js';

export class CurlError extends SeineError {
  static readonly code = 'SEINE_CURL';

  constructor(message: string) {
    super(CurlError.code, `Cannot read the curl command: ${message}`);
  }
}

export interface CurlRequestFields {
  readonly url: string;
  readonly method: string;
  readonly headers: Array<[string, string]>;
  readonly cookies: Record<string, string>;
  readonly body: Buffer | null;
}

export interface FromCurlOptions {
  /** false: an option seine does not read is an error, not a warning (Scrapy's ignore_unknown_options). */
  readonly ignoreUnknownOptions?: boolean;
}

const WITH_VALUE: Readonly<Record<string, 'header' | 'method' | 'data' | 'user' | 'cookie'>> = {
  '-H': 'header', '--header': 'header',
  '-X': 'method', '--request': 'method',
  '-d': 'data', '--data': 'data', '--data-raw': 'data', '--data-binary': 'data', '--data-ascii': 'data',
  '-u': 'user', '--user': 'user',
  '-b': 'cookie', '--cookie': 'cookie',
};
const IGNORED = new Set(['--compressed', '-s', '--silent', '-v', '--verbose', '-#', '--progress-bar']);

/** `name=value; name2=value2` (a Cookie header, or -b) as an object; quoted values lose their quotes, as http.cookies reads them. */
function parseCookies(text: string, into: Record<string, string>): void {
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (name !== '') into[name] = value;
  }
}

function basicAuth(user: string): string {
  const colon = user.indexOf(':');
  if (colon < 0) throw new CurlError(`-u ${JSON.stringify(user)} has no password: write -u user:password`);
  return `Basic ${Buffer.from(`${user.slice(0, colon)}:${user.slice(colon + 1)}`, 'latin1').toString('base64')}`;
}

export function curlToRequestFields(command: string, options: FromCurlOptions = {}): CurlRequestFields {
  if (typeof command !== 'string') throw new TypeError(`Request.fromCurl() needs the curl command as a string, got ${command === null ? 'null' : typeof command}`);
  let bytes: Buffer[];
  try {
    bytes = shellWordBytes(command.trim());
  } catch (error) {
    if (error instanceof ShellWordsError) throw new CurlError(`${error.message} in ${JSON.stringify(command.slice(0, 80))}`);
    throw error;
  }
  const words = bytes.map((word) => word.toString('utf8'));
  if (words[0] !== 'curl') throw new CurlError('a curl command must start with "curl"');
  let url: string | null = null;
  let method: string | null = null;
  const rawHeaders: string[] = [];
  const data: Buffer[] = [];
  const cookieTexts: string[] = [];
  let user: string | null = null;
  const unknown: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (IGNORED.has(word)) continue;
    // --name=value and -Xvalue, as argparse reads them.
    const long = /^(--[\w-]+)=(.*)$/s.exec(word);
    const short = /^(-[A-Za-z])(.+)$/s.exec(word);
    const option = long?.[1] ?? short?.[1] ?? word;
    const kind = WITH_VALUE[option];
    if (kind !== undefined) {
      let value = long?.[2] ?? (short !== null && WITH_VALUE[short[1]!] !== undefined ? short[2]! : undefined);
      let raw: Buffer | undefined = value === undefined ? undefined : Buffer.from(value, 'utf8');
      if (value === undefined) {
        value = words[++i];
        raw = bytes[i];
        if (value === undefined || raw === undefined) throw new CurlError(`argument ${option} expected one argument`);
      }
      if (kind === 'header') rawHeaders.push(value);
      else if (kind === 'method') method = value;
      else if (kind === 'data') data.push(raw!);
      else if (kind === 'user') user = value;
      else cookieTexts.push(value);
    } else if (word.startsWith('-') && word !== '-') {
      unknown.push(word);
    } else if (url === null) {
      url = word;
    } else {
      unknown.push(word);
    }
  }
  if (url === null) throw new CurlError('the following arguments are required: url');
  if (unknown.length > 0) {
    const message = `Unrecognized options: ${unknown.join(', ')}`;
    if (options.ignoreUnknownOptions === false) throw new CurlError(message);
    process.emitWarning(`Request.fromCurl: ${message}`, { code: 'SEINE_CURL_UNKNOWN_OPTIONS' });
  }
  // curl puts http:// before a URL without a scheme; a Request needs the scheme.
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url) || /^[^/:]+:\d/.test(url)) url = `http://${url}`;
  const headers: Array<[string, string]> = [];
  const cookies: Record<string, string> = {};
  for (const header of rawHeaders) {
    const colon = header.indexOf(':');
    if (colon < 0) throw new CurlError(`header ${JSON.stringify(header)} has no ':': write -H 'Name: value'`);
    const name = header.slice(0, colon).trim();
    const value = header.slice(colon + 1).trim();
    if (name.toLowerCase() === 'cookie') parseCookies(value, cookies);
    else headers.push([name, value]);
  }
  for (const text of cookieTexts) parseCookies(text, cookies);
  if (user !== null) headers.push(['Authorization', basicAuth(user)]);
  const joined = Buffer.concat(data.flatMap((chunk, index) => (index === 0 ? [chunk] : [Buffer.from('&'), chunk])));
  const body = joined.length > 0 ? joined : null;
  return { url, method: (method ?? (body !== null ? 'POST' : 'GET')).toUpperCase(), headers, cookies, body };
}

export interface CurlSource {
  readonly url: string;
  readonly method: string;
  readonly headers: Iterable<[string, string[]]>;
  readonly body: Buffer;
  readonly cookies: Readonly<Record<string, string>> | ReadonlyArray<{ readonly name: string; readonly value: string }>;
}

/** A body that is not UTF-8 is written in Bash's $'…' with \xHH escapes, so the bytes survive the round trip. */
function quoteBody(body: Buffer): string {
  const text = body.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(body)) return shellQuote(text);
  let out = "$'";
  for (const byte of body) {
    const char = String.fromCharCode(byte);
    out += byte >= 0x20 && byte < 0x7f && char !== "'" && char !== '\\' ? char : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${out}'`;
}

/** The request as one curl command line: method, URL, headers, cookies and body, each quoted for a POSIX shell. */
export function requestToCurl(request: CurlSource): string {
  const parts = ['curl'];
  const hasBody = request.body.length > 0;
  if (!(request.method === 'GET' && !hasBody) && !(request.method === 'POST' && hasBody)) parts.push('-X', request.method);
  parts.push(shellQuote(request.url));
  for (const [name, values] of request.headers) for (const value of values) parts.push('-H', shellQuote(`${name}: ${value}`));
  const cookies = Array.isArray(request.cookies)
    ? (request.cookies as ReadonlyArray<{ name: string; value: string }>).map((c) => `${c.name}=${c.value}`)
    : Object.entries(request.cookies as Record<string, string>).map(([name, value]) => `${name}=${value}`);
  if (cookies.length > 0) parts.push('-b', shellQuote(cookies.join('; ')));
  if (hasBody) parts.push('--data-raw', quoteBody(request.body));
  return parts.join(' ');
}
