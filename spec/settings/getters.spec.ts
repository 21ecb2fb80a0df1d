import { describe, expect, it } from '@jest/globals';
import { Settings } from '../../src/settings/settings.js';
import { SettingsError } from '../../src/settings/settings-error.js';

function withValue(value: unknown): Settings {
  const settings = Settings.empty();
  settings.set('X', value, 'cmdline', `-s X=${String(value)}`);
  return settings;
}

function errorOf(read: () => unknown): SettingsError {
  try {
    read();
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('no error thrown');
}

describe('getBool', () => {
  it.each([
    [true, true], [false, false], [1, true], [0, false], [2, true], [0.5, false], [-1, true],
    ['1', true], ['0', false], [' 1 ', true], ['2', true], ['True', true], ['true', true],
    ['False', false], ['false', false],
  ])('reads %j as %j, like Scrapy', (value, expected) => {
    expect(withValue(value).getBool('X')).toBe(expected);
  });

  it('returns the default for an unset or null setting', () => {
    expect(Settings.empty().getBool('X')).toBe(false);
    expect(Settings.empty().getBool('X', true)).toBe(true);
    expect(withValue(null).getBool('X', true)).toBe(true);
  });

  it.each(['yes', 'TRUE', '', '1.0', 'on'])('rejects %j with a message naming the setting and the option', (value) => {
    expect(errorOf(() => withValue(value).getBool('X')).message).toBe(
      `Setting X expects a boolean (true/false, True/False or 1/0), got '${value}' (from -s X=${value})`,
    );
  });

  it('gives the error the code SEINE_BAD_SETTING', () => {
    expect(errorOf(() => withValue('yes').getBool('X')).code).toBe('SEINE_BAD_SETTING');
  });
});

describe('getInt', () => {
  it.each([
    [16, 16], ['16', 16], [' 16\n', 16], ['-3', -3], ['+3', 3], ['1_000', 1000], [3.9, 3], [-3.9, -3],
    [true, 1], [false, 0], ['007', 7],
  ])('reads %j as %j, like Python int()', (value, expected) => {
    expect(withValue(value).getInt('X')).toBe(expected);
  });

  it('returns the default for an unset setting', () => {
    expect(Settings.empty().getInt('X')).toBe(0);
    expect(Settings.empty().getInt('X', 5)).toBe(5);
  });

  it.each(['abc', '1.5', '', '1e3', '0x10', '1__0', '_1'])('rejects %j', (value) => {
    expect(errorOf(() => withValue(value).getInt('X')).message).toBe(
      `Setting X expects an integer, got '${value}' (from -s X=${value})`,
    );
  });

  it('rejects non-finite numbers and objects, quoting them as JSON', () => {
    expect(errorOf(() => withValue(Infinity).getInt('X')).message).toBe(
      'Setting X expects an integer, got Infinity (from -s X=Infinity)',
    );
    expect(errorOf(() => withValue([1]).getInt('X')).message).toBe('Setting X expects an integer, got [1] (from -s X=1)');
  });

  it('reports the exact message of the brief for CONCURRENT_REQUESTS=abc', () => {
    const settings = new Settings();
    settings.set('CONCURRENT_REQUESTS', 'abc', 'cmdline', '-s CONCURRENT_REQUESTS=abc');
    expect(() => settings.getInt('CONCURRENT_REQUESTS')).toThrow(
      "Setting CONCURRENT_REQUESTS expects an integer, got 'abc' (from -s CONCURRENT_REQUESTS=abc)",
    );
  });
});

describe('getFloat', () => {
  it.each([
    [0.5, 0.5], ['0.5', 0.5], ['.5', 0.5], ['5.', 5], ['1e3', 1000], ['-2.5E-1', -0.25], [' 3 ', 3],
    ['inf', Infinity], ['-Infinity', -Infinity], [true, 1],
  ])('reads %j as %j, like Python float()', (value, expected) => {
    expect(withValue(value).getFloat('X')).toBe(expected);
  });

  it('reads nan as NaN', () => {
    expect(withValue('nan').getFloat('X')).toBeNaN();
  });

  it.each(['abc', '', '1,5', '.', 'e3'])('rejects %j', (value) => {
    expect(errorOf(() => withValue(value).getFloat('X')).message).toBe(
      `Setting X expects a number, got '${value}' (from -s X=${value})`,
    );
  });
});

describe('getList', () => {
  it('splits a string on commas without trimming, like Scrapy', () => {
    expect(withValue('a, b,c').getList('X')).toEqual(['a', ' b', 'c']);
    expect(withValue('').getList('X')).toEqual(['']);
  });

  it('returns a copy of an array', () => {
    const list = [500, 502];
    const settings = withValue(list);
    const got = settings.getList('X');
    expect(got).toEqual([500, 502]);
    got.push(1);
    expect(settings.getList('X')).toEqual([500, 502]);
  });

  it('returns the default for an unset setting', () => {
    expect(Settings.empty().getList('X')).toEqual([]);
    expect(Settings.empty().getList('X', ['a'])).toEqual(['a']);
  });

  it('rejects a number or an object', () => {
    expect(errorOf(() => withValue(5).getList('X')).message).toBe(
      'Setting X expects a list (an array or a comma-separated string), got 5 (from -s X=5)',
    );
    expect(errorOf(() => withValue({ a: 1 }).getList('X')).message).toBe(
      'Setting X expects a list (an array or a comma-separated string), got {"a":1} (from -s X=[object Object])',
    );
  });
});

describe('getDict', () => {
  it('parses a JSON object string', () => {
    expect(withValue('{"a": 1, "b": [2]}').getDict('X')).toEqual({ a: 1, b: [2] });
  });

  it('returns a shallow copy of an object', () => {
    const settings = withValue({ a: 1 });
    settings.getDict('X')['b'] = 2;
    expect(settings.getDict('X')).toEqual({ a: 1 });
  });

  it('returns the default for an unset setting', () => {
    expect(Settings.empty().getDict('X')).toEqual({});
  });

  it.each(['{bad', '[1, 2]', '"text"', 'null'])('rejects %j, which is not a JSON object', (value) => {
    expect(errorOf(() => withValue(value).getDict('X')).message).toBe(
      `Setting X expects an object (or a string holding a JSON object), got '${value}' (from -s X=${value})`,
    );
  });
});

describe('get() of typed list settings', () => {
  it('reads a comma list of integers for RETRY_HTTP_CODES and rejects a non-integer item', () => {
    const settings = new Settings();
    settings.set('RETRY_HTTP_CODES', '500,abc', 'cmdline', '-s RETRY_HTTP_CODES=500,abc');
    expect(() => settings.get('RETRY_HTTP_CODES')).toThrow(
      "Setting RETRY_HTTP_CODES expects a list of integers (an array, a JSON array or a comma-separated string), got '500,abc' (from -s RETRY_HTTP_CODES=500,abc)",
    );
  });

  it('reads the empty string as the empty list, and as null for nullable lists', () => {
    const settings = new Settings();
    settings.set('SPIDER_MODULES', '', 'cmdline');
    settings.set('FEED_EXPORT_FIELDS', '', 'cmdline');
    expect(settings.get('SPIDER_MODULES')).toEqual([]);
    expect(settings.get('FEED_EXPORT_FIELDS')).toBeNull();
  });

  it('reads FEED_EXPORT_FIELDS from a comma list, trimming each name', () => {
    const settings = new Settings();
    settings.set('FEED_EXPORT_FIELDS', 'text, author', 'cmdline');
    expect(settings.get('FEED_EXPORT_FIELDS')).toEqual(['text', 'author']);
  });

  it('rejects a non-string where a string setting is expected', () => {
    const settings = new Settings();
    settings.set('BOT_NAME', 5 as unknown as string, 'project');
    expect(() => settings.get('BOT_NAME')).toThrow(
      "Setting BOT_NAME expects a string, got 5 (from the project's settings)",
    );
  });
});
