import { describe, expect, it } from '@jest/globals';
import { pformat } from '../../src/stats/pformat.js';
import { formatStatsDump } from '../../src/stats/stats-dump.js';
import { pythonDatetimeRepr, pythonNumberRepr } from '../../src/python/repr.js';

const utc = (...fields: [number, number, number, number, number, number, number]): Date => {
  const [year, month, day, hour, minute, second, ms] = fields;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
};

// Every expected string below is what Python 3.11's pprint.pformat() printed for the same value.
describe('pformat', () => {
  it("prints a crawl's stats one key per line, sorted, when they do not fit in 80 columns", () => {
    const stats = {
      'start_time': utc(2024, 1, 2, 3, 3, 53, 178),
      'scheduler/enqueued/memory': 5,
      'scheduler/enqueued': 5,
      'scheduler/dequeued/memory': 5,
      'scheduler/dequeued': 5,
      'response_received_count': 5,
      'log_count/INFO': 10,
      'log_count/DEBUG': 46,
      'item_scraped_count': 40,
      'finish_time': utc(2024, 1, 2, 3, 4, 5, 678),
      'finish_reason': 'finished',
      'elapsed_time_seconds': 12.5,
      'downloader/response_status_count/404': 1,
      'downloader/response_status_count/200': 4,
      'downloader/response_count': 5,
      'downloader/response_bytes': 56789,
      'downloader/request_method_count/GET': 5,
      'downloader/request_count': 5,
      'downloader/request_bytes': 1234,
    };
    expect(pformat(stats)).toBe(
      "{'downloader/request_bytes': 1234,\n 'downloader/request_count': 5,\n 'downloader/request_method_count/GET': 5,\n 'downloader/response_bytes': 56789,\n 'downloader/response_count': 5,\n 'downloader/response_status_count/200': 4,\n 'downloader/response_status_count/404': 1,\n 'elapsed_time_seconds': 12.5,\n 'finish_reason': 'finished',\n 'finish_time': datetime.datetime(2024, 1, 2, 3, 4, 5, 678000),\n 'item_scraped_count': 40,\n 'log_count/DEBUG': 46,\n 'log_count/INFO': 10,\n 'response_received_count': 5,\n 'scheduler/dequeued': 5,\n 'scheduler/dequeued/memory': 5,\n 'scheduler/enqueued': 5,\n 'scheduler/enqueued/memory': 5,\n 'start_time': datetime.datetime(2024, 1, 2, 3, 3, 53, 178000)}",
    );
  });

  it('keeps a dict that fits in 80 columns on one line', () => {
    expect(pformat({ b: 2, a: 1.5, c: 'x' })).toBe("{'a': 1.5, 'b': 2, 'c': 'x'}");
    expect(pformat({})).toBe('{}');
    expect(pformat({ x: true, y: false, z: null, big: 12345678901234567890123n })).toBe(
      "{'big': 12345678901234567890123, 'x': True, 'y': False, 'z': None}",
    );
  });

  it('prints integral numbers of float stats with .0', () => {
    expect(pformat({ elapsed_time_seconds: 3, item_scraped_count: 3 }, { floatKeys: ['elapsed_time_seconds'] })).toBe(
      "{'elapsed_time_seconds': 3.0, 'item_scraped_count': 3}",
    );
  });

  it('prints floats as Python does', () => {
    const floats = { a: 1e-5, b: 1e16, c: 0.1, d: -0, e: Infinity, f: 123456789.125, g: 1.5e300, h: 0.0001 };
    expect(pformat(floats, { floatKeys: ['d'] })).toBe(
      "{'a': 1e-05,\n 'b': 1e+16,\n 'c': 0.1,\n 'd': -0.0,\n 'e': inf,\n 'f': 123456789.125,\n 'g': 1.5e+300,\n 'h': 0.0001}",
    );
  });

  it('splits a long string value at spaces into adjacent literals aligned under the first', () => {
    const reason = 'closespider_errorcount because the spider raised far too many errors for anyone to keep going on with it';
    expect(pformat({ finish_reason: reason, z: 1 })).toBe(
      "{'finish_reason': 'closespider_errorcount because the spider raised far too '\n                  'many errors for anyone to keep going on with it',\n 'z': 1}",
    );
    expect(pformat({ a: 1, z_reason: reason })).toBe(
      "{'a': 1,\n 'z_reason': 'closespider_errorcount because the spider raised far too many '\n             'errors for anyone to keep going on with it'}",
    );
  });

  it('splits a multi-line string value at its line ends', () => {
    const error = 'first line of a long message that goes on\nsecond line that also goes on and on and on and on and on and on';
    expect(pformat({ error, k: 2 })).toBe(
      "{'error': 'first line of a long message that goes on\\n'\n          'second line that also goes on and on and on and on and on and on',\n 'k': 2}",
    );
  });

  it('wraps a long top-level string in parentheses', () => {
    expect(pformat('a top level string that is long enough to be split across more than one line of output ok')).toBe(
      "('a top level string that is long enough to be split across more than one line '\n 'of output ok')",
    );
  });

  it('nests dicts and lists with their own indentation', () => {
    const feeds = { 'items.jsonl': { format: 'jsonlines', overwrite: true, encoding: null, fields: ['text', 'author', 'tags'] } };
    expect(pformat({ feeds, n: 1 })).toBe(
      "{'feeds': {'items.jsonl': {'encoding': None,\n                           'fields': ['text', 'author', 'tags'],\n                           'format': 'jsonlines',\n                           'overwrite': True}},\n 'n': 1}",
    );
    const urls = [1, 2, 3, 4, 5].map((n) => `http://127.0.0.1:8000/page/${n}/`);
    expect(pformat({ urls, a: [] })).toBe(
      "{'a': [],\n 'urls': ['http://127.0.0.1:8000/page/1/',\n          'http://127.0.0.1:8000/page/2/',\n          'http://127.0.0.1:8000/page/3/',\n          'http://127.0.0.1:8000/page/4/',\n          'http://127.0.0.1:8000/page/5/']}",
    );
    expect(pformat(['x'.repeat(30), 'y'.repeat(30), 'z'.repeat(30)])).toBe(
      `['${'x'.repeat(30)}',\n '${'y'.repeat(30)}',\n '${'z'.repeat(30)}']`,
    );
  });

  it("quotes and escapes strings as Python's repr", () => {
    expect(pformat({ "it's": 'say "hi"', both: 'it\'s "x"', nl: 'a\nb\tc', uni: 'café ☃ \u200b' })).toBe(
      "{'both': 'it\\'s \"x\"',\n \"it's\": 'say \"hi\"',\n 'nl': 'a\\nb\\tc',\n 'uni': 'café ☃ \\u200b'}",
    );
  });

  it('prints dates as naive UTC datetimes, dropping zero microseconds and seconds', () => {
    expect(pformat({ a: utc(2024, 1, 2, 3, 4, 0, 0), b: utc(2024, 1, 2, 3, 0, 0, 0), c: utc(2024, 12, 31, 23, 59, 59, 1) })).toBe(
      "{'a': datetime.datetime(2024, 1, 2, 3, 4),\n 'b': datetime.datetime(2024, 1, 2, 3, 0),\n 'c': datetime.datetime(2024, 12, 31, 23, 59, 59, 1000)}",
    );
  });
});

describe('python reprs', () => {
  it('prints a datetime with every field Python would', () => {
    expect(pythonDatetimeRepr(utc(2024, 1, 2, 3, 4, 5, 678))).toBe('datetime.datetime(2024, 1, 2, 3, 4, 5, 678000)');
    expect(pythonDatetimeRepr(utc(2024, 1, 2, 3, 4, 5, 0))).toBe('datetime.datetime(2024, 1, 2, 3, 4, 5)');
  });

  it('prints integers as ints unless told they are floats', () => {
    expect(pythonNumberRepr(3)).toBe('3');
    expect(pythonNumberRepr(3, true)).toBe('3.0');
    expect(pythonNumberRepr(2 ** 53 - 1)).toBe('9007199254740991');
    expect(pythonNumberRepr(1e21)).toBe('1e+21');
    expect(pythonNumberRepr(0.5)).toBe('0.5');
    expect(pythonNumberRepr(Number.NaN)).toBe('nan');
  });
});

describe('formatStatsDump', () => {
  it("is 'Dumping seine stats:' and the pformat of the stats, elapsed_time_seconds as a float", () => {
    expect(formatStatsDump({ elapsed_time_seconds: 2, finish_reason: 'finished', item_scraped_count: 2 })).toBe(
      "Dumping seine stats:\n{'elapsed_time_seconds': 2.0,\n 'finish_reason': 'finished',\n 'item_scraped_count': 2}",
    );
  });
});
