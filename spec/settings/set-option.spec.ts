import { describe, expect, it } from '@jest/globals';
import { applySetOptions, parseSetOption } from '../../src/settings/set-option.js';
import { Settings } from '../../src/settings/settings.js';
import { SetOptionError } from '../../src/settings/settings-error.js';

describe('parseSetOption', () => {
  it('splits NAME=VALUE at the first equals sign', () => {
    expect(parseSetOption('CONCURRENT_REQUESTS=8')).toEqual({ name: 'CONCURRENT_REQUESTS', value: '8' });
    expect(parseSetOption('A=b=c')).toEqual({ name: 'A', value: 'b=c' });
  });

  it('keeps an empty value', () => {
    expect(parseSetOption('LOG_FILE=')).toEqual({ name: 'LOG_FILE', value: '' });
  });

  it('rejects a value without = with a message showing the expected form', () => {
    expect(() => parseSetOption('CONCURRENT_REQUESTS')).toThrow(
      new SetOptionError(
        "invalid -s value 'CONCURRENT_REQUESTS': it has no '='; use -s NAME=VALUE, e.g. -s CONCURRENT_REQUESTS=8",
      ),
    );
  });

  it('rejects an empty name', () => {
    expect(() => parseSetOption('=8')).toThrow(
      "invalid -s value '=8': the setting name is empty; use -s NAME=VALUE, e.g. -s CONCURRENT_REQUESTS=8",
    );
  });

  it('gives the error the code SEINE_BAD_SET_OPTION', () => {
    try {
      parseSetOption('X');
    } catch (error) {
      expect((error as SetOptionError).code).toBe('SEINE_BAD_SET_OPTION');
    }
    expect.assertions(1);
  });
});

describe('applySetOptions', () => {
  it('sets each value at priority cmdline with the option as its source', () => {
    const settings = new Settings();
    applySetOptions(settings, ['CONCURRENT_REQUESTS=4', 'MY_FLAG=on']);
    expect(settings.get('CONCURRENT_REQUESTS')).toBe(4);
    expect(settings.get('MY_FLAG')).toBe('on');
    expect(settings.getPriority('CONCURRENT_REQUESTS')).toBe(40);
    expect(settings.getSource('CONCURRENT_REQUESTS')).toBe('-s CONCURRENT_REQUESTS=4');
  });

  it('lets the last of repeated options win', () => {
    const settings = new Settings();
    applySetOptions(settings, ['BOT_NAME=a', 'BOT_NAME=b']);
    expect(settings.get('BOT_NAME')).toBe('b');
  });

  it('sets nothing when one option is malformed', () => {
    const settings = new Settings();
    expect(() => applySetOptions(settings, ['BOT_NAME=a', 'oops'])).toThrow(SetOptionError);
    expect(settings.get('BOT_NAME')).toBe('seinebot');
  });
});
