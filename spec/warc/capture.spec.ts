/**
 * The headers a recorded response gets for the body the archive holds
 * (decoded, de-chunked): a Content-Length that frames it, no
 * Transfer-Encoding, and bodiless answers left as they came.
 */
import { describe, expect, it } from '@jest/globals';
import { headersForBody } from '../../src/warc/capture.js';

describe('headersForBody', () => {
  it('gives a decoded body its own Content-Length in place and drops Content-Encoding', () => {
    expect(headersForBody([['Content-Type', 'text/html'], ['Content-Encoding', 'gzip'], ['Content-Length', '31'], ['X-A', '1']], 120, { method: 'GET', status: 200, decoded: true })).toEqual([
      ['Content-Type', 'text/html'],
      ['Content-Length', '120'],
      ['X-A', '1'],
    ]);
  });

  it('adds a Content-Length for a chunked body and drops Transfer-Encoding', () => {
    expect(headersForBody([['Transfer-Encoding', 'chunked'], ['Content-Type', 'text/plain']], 7, { method: 'GET', status: 200, decoded: false })).toEqual([
      ['Content-Type', 'text/plain'],
      ['Content-Length', '7'],
    ]);
  });

  it('leaves headers that already frame the body, repeated ones repeated', () => {
    const headers: Array<[string, string]> = [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['Content-Length', '5']];
    expect(headersForBody(headers, 5, { method: 'GET', status: 200, decoded: false })).toEqual(headers);
    expect(headersForBody([['Content-Type', 'text/plain']], 5, { method: 'GET', status: 200, decoded: false })).toEqual([['Content-Type', 'text/plain']]);
  });

  it('keeps the Content-Length of answers that have no body (HEAD, 304, 204)', () => {
    const headers: Array<[string, string]> = [['Content-Length', '1234'], ['ETag', '"x"']];
    expect(headersForBody(headers, 0, { method: 'HEAD', status: 200, decoded: false })).toEqual(headers);
    expect(headersForBody(headers, 0, { method: 'GET', status: 304, decoded: false })).toEqual(headers);
  });
});
