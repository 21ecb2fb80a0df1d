/**
 * Type tests for the public HTTP types: `npx tsc --noEmit` fails if an
 * `@ts-expect-error` line stops being an error or a plain line becomes one.
 * The bodies are declared, not run: not a jest file, the type check in
 * `npm test` is the test.
 */
import { Headers } from '../../src/http/headers.js';
import { Request, isRequest, type Callback, type CallbackResult, type RequestOptions } from '../../src/http/request.js';
import { Response, type FollowAllQuery } from '../../src/http/response.js';
import { fingerprint } from '../../src/http/fingerprint.js';
import type { Selector, SelectorList } from '../../src/selector/index.js';

export function requestTypes(): void {
  new Request('http://example.com/');
  new Request('http://example.com/', { method: 'POST', body: Buffer.from('x'), headers: [['A', 'b']], priority: 1 });
  // @ts-expect-error the URL is a string
  new Request(new URL('http://example.com/'));
  // @ts-expect-error priority is a number
  new Request('http://example.com/', { priority: '1' });
  // @ts-expect-error dont_filter is dontFilter in seine
  new Request('http://example.com/', { dont_filter: true });
  // @ts-expect-error headers hold strings, lists of strings or numbers
  new Request('http://example.com/', { headers: { A: { nested: true } } });
  // @ts-expect-error a callback takes a Response first
  new Request('http://example.com/', { callback: (n: number) => n });
  // @ts-expect-error a callback returns items, requests, iterables, promises, observables or nothing; not a number
  new Request('http://example.com/', { callback: () => 42 });

  const request = new Request('http://example.com/');
  // @ts-expect-error fields are read-only: use replace()
  request.url = 'http://example.com/other';
  // @ts-expect-error fields are read-only: use replace()
  request.priority = 3;
  const posted: Request = request.replace({ method: 'POST', url: 'http://example.com/post' });
  // @ts-expect-error replace() takes Request options
  request.replace({ status: 200 });
  void posted;

  const unknown: unknown = request;
  if (isRequest(unknown)) {
    const url: string = unknown.url;
    void url;
  }
}

export function callbackTypes(): void {
  const generator: Callback = function* (response: Response) {
    yield { title: response.css('title::text').get() };
    yield response.follow('next');
  };
  const asyncGenerator: Callback = async function* (response) {
    yield { url: response.url };
  };
  const withKwargs: Callback = (response, kwargs) => [{ url: response.url, page: kwargs['page'] }];
  const nothing: Callback = () => undefined;
  const promise: Callback = async () => ({ done: true });
  const result: CallbackResult = [new Request('http://example.com/')];
  const options: RequestOptions = { callback: generator, errback: (error, request) => void [error.message, request.url] };
  void [asyncGenerator, withKwargs, nothing, promise, result, options];
}

export function responseTypes(response: Response): void {
  const status: number = response.status;
  const body: Buffer = response.body;
  const text: string = response.text;
  const first: string | null = response.headers.get('content-type');
  const all: string[] = response.headers.getList('set-cookie');
  const list: SelectorList = response.css('a');
  const xlist: SelectorList = response.xpath('//a[@id=$id]', { id: 'x' });
  const kind: 'html' | 'xml' | 'text' | 'binary' = response.kind;
  void [status, body, text, first, all, list, xlist, kind];
  // @ts-expect-error json() is unknown until the caller checks it
  const count: number = response.json();
  // @ts-expect-error status is read-only
  response.status = 500;
  // @ts-expect-error XPath variables are strings, numbers or booleans
  response.xpath('//a', { id: [1] });
  void count;

  const one: Selector = list[0]!;
  response.follow('page-2.html');
  response.follow(one, (r) => [{ url: r.url }]);
  response.follow(one, { callback: null, meta: { a: 1 }, dontFilter: true });
  response.follow(new Request('http://example.com/'));
  // @ts-expect-error follow() takes one link; a SelectorList goes to followAll()
  response.follow(list);
  // @ts-expect-error a number is not a link
  response.follow(3);
  response.followAll(['a', 'b']);
  response.followAll(list, { priority: 1 });
  response.followAll({ css: 'a.next', callback: null });
  response.followAll({ xpath: '//a/@href' });
  // @ts-expect-error exactly one of css and xpath
  response.followAll({ css: 'a', xpath: '//a' });
  // @ts-expect-error the query needs css or xpath
  response.followAll({ callback: null });
  const query: FollowAllQuery = { css: 'a' };
  const requests: Request[] = response.followAll(query);
  void requests;

  const replaced: Response = response.replace({ status: 404, body: 'gone' });
  // @ts-expect-error replace() takes Response options
  response.replace({ method: 'POST' });
  void replaced;
  // @ts-expect-error a Response needs a url
  new Response({ status: 200 });
}

export function otherTypes(request: Request): void {
  const hex: string = fingerprint(request, { includeHeaders: ['Accept-Language'], keepFragments: true });
  // @ts-expect-error includeHeaders is a list of names (a string would be read letter by letter)
  fingerprint(request, { includeHeaders: 'accept' });
  const headers = new Headers({ 'Content-Length': 3, Accept: ['a', 'b'] });
  // @ts-expect-error header values are strings
  headers.set('A', 1);
  void hex;
}
