import { describe, expect, it, jest } from '@jest/globals';
import { JsonRequest, jsonRequestNumber } from '../../src/http/json-request.js';
import { pythonJsonDumps as pythonJsonDumpsOf } from '../../src/python/json-dumps.js';

/** json.dumps(value, sort_keys=True) as JsonRequest writes it. */
const pythonJsonDumps = (value: unknown): string => pythonJsonDumpsOf(value, { sortKeys: true, number: jsonRequestNumber });

const ACCEPT = 'application/json, text/javascript, */*; q=0.01';
const URL = 'http://127.0.0.1/api';

describe('JsonRequest, as Scrapy 2.8 builds it (values recorded from scrapy.http.JsonRequest)', () => {
  it.each([
    [{ data: { b: 1, a: [1, 2.5, 'é'], c: null, d: true } }, 'POST', '{"a": [1, 2.5, "\\u00e9"], "b": 1, "c": null, "d": true}'],
    [{ data: { x: 1 }, method: 'PUT' }, 'PUT', '{"x": 1}'],
    [{}, 'GET', ''],
    [{ data: { q: 'ü', n: { z: 1, y: 2 } } }, 'POST', '{"n": {"y": 2, "z": 1}, "q": "\\u00fc"}'],
    [{ data: [] }, 'POST', '[]'],
    [{ data: {} }, 'POST', '{}'],
  ])('%j → %s %s', (options, method, body) => {
    const request = new JsonRequest(URL, options);
    expect(request.method).toBe(method);
    expect(request.body.toString('latin1')).toBe(body);
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(request.headers.get('Accept')).toBe(ACCEPT);
  });

  it('keeps a Content-Type given, and a body given over data (with a warning, as Scrapy)', () => {
    expect(new JsonRequest(URL, { data: { x: 1 }, headers: { 'Content-Type': 'application/vnd.api+json' } }).headers.get('Content-Type')).toBe('application/vnd.api+json');
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const request = new JsonRequest(URL, { body: '{"raw": 1}', data: { x: 1 } });
      expect([request.method, request.body.toString()]).toEqual(['GET', '{"raw": 1}']);
      expect(warn).toHaveBeenCalledWith('JsonRequest: both body and data passed; data is ignored', { code: 'SEINE_JSON_REQUEST_BODY_AND_DATA' });
    } finally {
      warn.mockRestore();
    }
  });

  it('replace({ data }) writes a new body and keeps the method and the class', () => {
    const replaced = new JsonRequest(URL, { data: { a: 1 } }).replace({ data: { b: 2 } });
    expect(replaced).toBeInstanceOf(JsonRequest);
    expect([replaced.method, replaced.body.toString()]).toEqual(['POST', '{"b": 2}']);
    expect(new JsonRequest(URL, { data: { b: 1, a: 2 }, sortKeys: false }).body.toString()).toBe('{"b": 1, "a": 2}');
  });
});

describe('pythonJsonDumps: json.dumps(value, sort_keys=True)', () => {
  it('escapes as Python does (recorded from Python 3.11)', () => {
    expect(pythonJsonDumps({ e: '😀', c: '\x01\x7f\n\t"\\/', f: [1e-7, 1.5, 0.1] })).toBe('{"c": "\\u0001\\u007f\\n\\t\\"\\\\/", "e": "\\ud83d\\ude00", "f": [1e-07, 1.5, 0.1]}');
  });

  it('follows JSON.stringify for what JSON has no word for', () => {
    expect(pythonJsonDumps({ when: new Date(Date.UTC(2026, 0, 2)), gone: undefined, fn: () => 1, list: [undefined, NaN] })).toBe('{"list": [null, null], "when": "2026-01-02T00:00:00.000Z"}');
  });
});
