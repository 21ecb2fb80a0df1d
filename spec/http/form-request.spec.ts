import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { FormError, FormRequest } from '../../src/http/form-request.js';
import { Response } from '../../src/index.js';

interface Case {
  name: string;
  html: string;
  url?: string;
  encoding?: string;
  options?: Record<string, unknown>;
}
type Result = { url: string; method: string; body: string; contentType: string } | { error: string; message: string };

const read = <T>(file: string): T => JSON.parse(readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8')) as T;
/** The forms, and what Scrapy 2.8's FormRequest.from_response made of each (spec/http/fixtures/record-forms.py). */
const CASES = read<Case[]>('forms-cases.json');
const SCRAPY = new Map(read<Array<{ name: string; result: Result }>>('forms-scrapy.json').map((r) => [r.name, r.result]));
/** Where seine differs from Scrapy 2.8 on purpose. */
const SEINE_DIFFERS: Record<string, Result> = {
  // The same error; the clickdata is shown as JSON, not as a Python dict.
  'clickdata no match': { error: 'ValueError', message: 'No clickable element matching clickdata: {"name":"nope"}' },
};

function responseFor(c: Case): Response {
  const encoding = c.encoding ?? 'utf-8';
  return new Response({
    url: c.url ?? 'http://127.0.0.1/page/form.html',
    body: Buffer.from(c.html, encoding === 'latin-1' ? 'latin1' : 'utf8'),
    headers: { 'Content-Type': `text/html; charset=${encoding === 'latin-1' ? 'iso-8859-1' : encoding}` },
  });
}

describe('FormRequest.fromResponse gives what Scrapy gives', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const expected = SEINE_DIFFERS[name] ?? SCRAPY.get(name)!;
    const run = (): FormRequest => FormRequest.fromResponse(responseFor(c), c.options as never);
    if ('error' in expected) {
      expect(run).toThrow(FormError);
      expect(run).toThrow(expected.message);
      return;
    }
    const request = run();
    expect({ url: request.url, method: request.method, body: request.body.toString('latin1'), contentType: request.headers.get('Content-Type') ?? '' }).toEqual(expected);
  });
});

describe('new FormRequest', () => {
  it('POSTs the fields urlencoded, or puts them in the query of a GET', () => {
    const post = new FormRequest('http://127.0.0.1/login', { formdata: { user: 'ann', pass: 'a b&c' } });
    expect([post.method, post.body.toString(), post.headers.get('Content-Type')]).toEqual(['POST', 'user=ann&pass=a+b%26c', 'application/x-www-form-urlencoded']);
    const get = new FormRequest('http://127.0.0.1/search?old=1#top', { method: 'GET', formdata: [['q', 'shoes'], ['q', 'boots']] });
    expect([get.method, get.url, get.body.length]).toEqual(['GET', 'http://127.0.0.1/search?q=shoes&q=boots#top', 0]);
    const none = new FormRequest('http://127.0.0.1/x', { formdata: {} });
    expect([none.method, none.body.length]).toEqual(['GET', 0]);
  });
});
