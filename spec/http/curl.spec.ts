import { describe, expect, it, jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { CurlError } from '../../src/http/curl.js';
import { shellWords } from '../../src/http/shell-words.js';
import { JsonRequest, Request } from '../../src/index.js';

interface Recorded {
  command: string;
  kwargs: { method: string; url: string; headers?: Array<[string, string]>; cookies?: Record<string, string>; body?: string };
  warnings: string[];
}

/** Scrapy 2.8's curl_to_request_kwargs on each command, recorded (spec/http/fixtures/curl-scrapy.json). */
const RECORDED = JSON.parse(readFileSync(new URL('./fixtures/curl-scrapy.json', import.meta.url), 'utf8')) as Recorded[];

const headerPairs = (request: Request): Array<[string, string]> =>
  [...request.headers.entries()].flatMap(([name, values]) => values.map((value): [string, string] => [name.toLowerCase(), value]));

describe('Request.fromCurl: what Scrapy reads from the same command', () => {
  it.each(RECORDED.map((r) => [r.command, r] as const))('%s', (_command, recorded) => {
    const request = Request.fromCurl(recorded.command);
    const { kwargs } = recorded;
    expect(request.method).toBe(kwargs.method);
    expect(request.url).toBe(new Request(kwargs.url).url);
    expect(headerPairs(request)).toEqual((kwargs.headers ?? []).map(([name, value]) => [name.toLowerCase(), value]));
    expect(request.cookies).toEqual(kwargs.cookies ?? {});
    expect(request.body.toString('latin1')).toBe(kwargs.body ?? '');
  });
});

describe('Request.fromCurl beyond Scrapy 2.8', () => {
  it("reads Chrome's -b cookies, --data-binary and $'…' bodies, and options laid over the command", () => {
    const chrome = `curl 'https://example.com/api' \\
  -H 'accept: */*' \\
  -b 'session=abc; theme=dark' \\
  --data-raw $'{"name":"O\\'Brien","city":"Z\\u00fcrich"}'`;
    const callback = (): void => undefined;
    const request = Request.fromCurl(chrome, { callback, meta: { from: 'devtools' } });
    expect(request.method).toBe('POST');
    expect(request.body.toString('utf8')).toBe(`{"name":"O'Brien","city":"Zürich"}`);
    expect(request.cookies).toEqual({ session: 'abc', theme: 'dark' });
    expect(request.callback).toBe(callback);
    expect(request.meta).toEqual({ from: 'devtools' });
    expect(Request.fromCurl("curl https://example.com --data-binary 'a=1' -d b=2").body.toString()).toBe('a=1&b=2');
    expect(Request.fromCurl('curl -XPUT --request=patch localhost:8000/x').method).toBe('PATCH');
    expect(Request.fromCurl('curl localhost:8000/x').url).toBe('http://localhost:8000/x');
  });

  it('warns about options it does not read (an error with ignoreUnknownOptions: false); a bad command is one line', () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      expect(Request.fromCurl("curl 'https://example.com/' -L --max-time 5").url).toBe('https://example.com/');
      expect(warn).toHaveBeenCalledWith('Request.fromCurl: Unrecognized options: -L, --max-time, 5', { code: 'SEINE_CURL_UNKNOWN_OPTIONS' });
    } finally {
      warn.mockRestore();
    }
    expect(() => Request.fromCurl("curl 'https://example.com/' -L", { ignoreUnknownOptions: false })).toThrow(new CurlError('Unrecognized options: -L'));
    expect(() => Request.fromCurl('wget https://example.com/')).toThrow('Cannot read the curl command: a curl command must start with "curl"');
    expect(() => Request.fromCurl('curl')).toThrow('Cannot read the curl command: the following arguments are required: url');
    expect(() => Request.fromCurl("curl 'https://example.com/")).toThrow(/^Cannot read the curl command: no closing quotation/);
    expect(() => Request.fromCurl('curl https://example.com/ -H NoColon')).toThrow(`Cannot read the curl command: header "NoColon" has no ':': write -H 'Name: value'`);
    expect(() => Request.fromCurl('curl https://example.com/ -u ann')).toThrow('Cannot read the curl command: -u "ann" has no password: write -u user:password');
    expect(() => Request.fromCurl('curl https://example.com/ -H')).toThrow('Cannot read the curl command: argument -H expected one argument');
  });
});

describe('request.toCurl', () => {
  it('round-trips: fromCurl(toCurl(r)) has the same method, URL, headers, cookies and body', () => {
    const requests = [
      new Request('https://example.com/search?q=a%20b'),
      new Request('https://example.com/login', { method: 'POST', body: "user=ann&note=it's", headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, cookies: { sid: 'x y' } }),
      new JsonRequest('https://example.com/api', { data: { name: 'Zoë' }, method: 'PUT' }),
      new Request('https://example.com/blob', { method: 'POST', body: Buffer.from([0, 1, 0xff, 0x27, 0x5c]) }),
      new Request('https://example.com/item/3', { method: 'DELETE' }),
    ];
    for (const request of requests) {
      const again = Request.fromCurl(request.toCurl());
      expect([again.method, again.url, headerPairs(again), again.cookies, again.body]).toEqual([request.method, request.url, headerPairs(request), request.cookies, request.body]);
    }
    expect(requests[1]!.toCurl()).toBe(
      `curl https://example.com/login -H 'Content-Type: application/x-www-form-urlencoded' -b 'sid=x y' --data-raw 'user=ann&note=it'"'"'s'`,
    );
    expect(requests[4]!.toCurl()).toBe('curl -X DELETE https://example.com/item/3');
  });
});

describe("docs/requests.md's example", () => {
  it('gives what the page says', () => {
    const request = Request.fromCurl(`curl 'https://example.com/api/search' -H 'accept: application/json' -b 'session=abc' --data-raw '{"q":"shoes"}'`);
    expect(request.method).toBe('POST');
    expect(request.cookies).toEqual({ session: 'abc' });
    const docs = readFileSync(new URL('../../docs/requests.md', import.meta.url), 'utf8');
    expect(docs).toContain(`request.toCurl();   // ${request.toCurl()}\n`);
  });
});

describe('shellWords', () => {
  it('splits as a POSIX shell does', () => {
    expect(shellWords(`curl 'a b' "c \\"d\\" \\$e" f\\ g \\\n h $'\\x41\\n' ''`)).toEqual(['curl', 'a b', 'c "d" $e', 'f g', 'h', 'A\n', '']);
  });
});
