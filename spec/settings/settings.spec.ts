import { describe, expect, it } from '@jest/globals';
import { DEFAULT_SETTINGS } from '../../src/settings/default-settings.js';
import { SETTINGS_PRIORITIES } from '../../src/settings/priorities.js';
import { Settings } from '../../src/settings/settings.js';
import { FrozenSettingsError, SettingsError } from '../../src/settings/settings-error.js';

describe('Settings priorities', () => {
  it('has Scrapy priority numbers default 0 < command 10 < project 20 < spider 30 < cmdline 40', () => {
    expect(SETTINGS_PRIORITIES).toEqual({ default: 0, command: 10, project: 20, spider: 30, cmdline: 40 });
  });

  it('starts from the defaults at priority default', () => {
    const settings = new Settings();
    expect(settings.get('CONCURRENT_REQUESTS')).toBe(16);
    expect(settings.get('BOT_NAME')).toBe('seinebot');
    expect(settings.getPriority('CONCURRENT_REQUESTS')).toBe(0);
  });

  it('stores constructor values at priority project by default', () => {
    const settings = new Settings({ CONCURRENT_REQUESTS: 4 });
    expect(settings.get('CONCURRENT_REQUESTS')).toBe(4);
    expect(settings.getPriority('CONCURRENT_REQUESTS')).toBe(20);
  });

  it('keeps a higher-priority value when a lower one is set later', () => {
    const settings = new Settings();
    settings.set('CONCURRENT_REQUESTS', 2, 'cmdline');
    settings.set('CONCURRENT_REQUESTS', 32, 'project');
    settings.set('CONCURRENT_REQUESTS', 64, 'spider');
    expect(settings.get('CONCURRENT_REQUESTS')).toBe(2);
    expect(settings.getPriority('CONCURRENT_REQUESTS')).toBe(40);
  });

  it('lets an equal or higher priority replace the value', () => {
    const settings = new Settings();
    settings.set('DOWNLOAD_DELAY', 1, 'project');
    settings.set('DOWNLOAD_DELAY', 2, 'project');
    expect(settings.get('DOWNLOAD_DELAY')).toBe(2);
    settings.set('DOWNLOAD_DELAY', 3, 'spider');
    expect(settings.get('DOWNLOAD_DELAY')).toBe(3);
    settings.set('DOWNLOAD_DELAY', 4, 35);
    expect(settings.getPriority('DOWNLOAD_DELAY')).toBe(35);
  });

  it('applies the layers in Scrapy order whatever order they arrive in', () => {
    const settings = new Settings();
    settings.setdict({ LOG_LEVEL: 'ERROR' }, 'cmdline');
    settings.setdict({ LOG_LEVEL: 'INFO', BOT_NAME: 'spiderbot' }, 'spider');
    settings.setdict({ LOG_LEVEL: 'WARNING', BOT_NAME: 'tutorial', ROBOTSTXT_OBEY: true }, 'project');
    settings.setdict({ LOG_ENABLED: false }, 'command');
    expect(settings.get('LOG_LEVEL')).toBe('ERROR');
    expect(settings.get('BOT_NAME')).toBe('spiderbot');
    expect(settings.get('ROBOTSTXT_OBEY')).toBe(true);
    expect(settings.get('LOG_ENABLED')).toBe(false);
  });

  it('reports the highest priority stored', () => {
    const settings = new Settings();
    expect(settings.maxPriority()).toBe(0);
    settings.set('FOO', 1, 'spider');
    expect(settings.maxPriority()).toBe(30);
    expect(Settings.empty().maxPriority()).toBe(0);
  });

  it('returns undefined priority and source for a name never set', () => {
    const settings = new Settings();
    expect(settings.getPriority('NOT_A_SETTING')).toBeUndefined();
    expect(settings.getSource('NOT_A_SETTING')).toBeUndefined();
    expect(settings.has('NOT_A_SETTING')).toBe(false);
  });

  it('deletes a value only from an equal or higher priority', () => {
    const settings = new Settings();
    settings.set('FOO', 'x', 'spider');
    settings.delete('FOO', 'project');
    expect(settings.get('FOO')).toBe('x');
    settings.delete('FOO', 'cmdline');
    expect(settings.has('FOO')).toBe(false);
  });
});

describe('Settings.get', () => {
  it('reads a string stored under a known name as the schema type', () => {
    const settings = new Settings();
    settings.set('CONCURRENT_REQUESTS', '8', 'cmdline');
    settings.set('ROBOTSTXT_OBEY', 'True', 'cmdline');
    settings.set('DOWNLOAD_DELAY', '0.25', 'cmdline');
    settings.set('RETRY_HTTP_CODES', '500, 503', 'cmdline');
    settings.set('SPIDER_MODULES', '["a.spiders","b.spiders"]', 'cmdline');
    settings.set('FEEDS', '{"out.jsonl": {"format": "jsonlines"}}', 'cmdline');
    settings.set('LOG_LEVEL', 'info', 'cmdline');
    settings.set('LOG_FILE', '', 'cmdline');
    expect(settings.get('CONCURRENT_REQUESTS')).toBe(8);
    expect(settings.get('ROBOTSTXT_OBEY')).toBe(true);
    expect(settings.get('DOWNLOAD_DELAY')).toBe(0.25);
    expect(settings.get('RETRY_HTTP_CODES')).toEqual([500, 503]);
    expect(settings.get('SPIDER_MODULES')).toEqual(['a.spiders', 'b.spiders']);
    expect(settings.get('FEEDS')).toEqual({ 'out.jsonl': { format: 'jsonlines' } });
    expect(settings.get('LOG_LEVEL')).toBe('INFO');
    expect(settings.get('LOG_FILE')).toBeNull();
  });

  it('returns values of unknown names as stored, and undefined when unset', () => {
    const settings = new Settings();
    settings.set('MY_SETTING', '42');
    expect(settings.get('MY_SETTING')).toBe('42');
    expect(settings.get('UNSET_SETTING')).toBeUndefined();
  });

  it('returns the raw value from getRaw', () => {
    const settings = new Settings();
    settings.set('CONCURRENT_REQUESTS', '8', 'cmdline');
    expect(settings.getRaw('CONCURRENT_REQUESTS')).toBe('8');
  });

  it('names the -s option in the error for a value that is not of the setting type', () => {
    const settings = new Settings();
    settings.set('CONCURRENT_REQUESTS', 'abc', 'cmdline', '-s CONCURRENT_REQUESTS=abc');
    expect(() => settings.get('CONCURRENT_REQUESTS')).toThrow(
      new SettingsError("Setting CONCURRENT_REQUESTS expects an integer, got 'abc' (from -s CONCURRENT_REQUESTS=abc)"),
    );
  });

  it("names the priority's layer when no source was given", () => {
    const settings = new Settings();
    settings.set('LOG_LEVEL', 'LOUD', 'project');
    expect(() => settings.get('LOG_LEVEL')).toThrow(
      "Setting LOG_LEVEL expects a log level (DEBUG, INFO, WARNING, ERROR or CRITICAL), got 'LOUD' (from the project's settings)",
    );
    settings.set('LOG_LEVEL', 'LOUDER', 'spider');
    expect(() => settings.get('LOG_LEVEL')).toThrow("got 'LOUDER' (from the spider's customSettings)");
    settings.set('LOG_LEVEL', 'LOUDEST', 45);
    expect(() => settings.get('LOG_LEVEL')).toThrow("got 'LOUDEST' (from priority 45)");
  });

  it('reads a known setting that was never stored as its default', () => {
    expect(Settings.empty().get('CONCURRENT_REQUESTS')).toBe(16);
  });

  it('types known settings and leaves unknown ones unknown', () => {
    const settings = new Settings();
    const concurrency: number = settings.get('CONCURRENT_REQUESTS');
    const level: 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR' | 'CRITICAL' = settings.get('LOG_LEVEL');
    const file: string | null = settings.get('LOG_FILE');
    // @ts-expect-error an unknown setting is `unknown`, not a number
    const unknownValue: number = settings.get('MY_SETTING');
    // @ts-expect-error CONCURRENT_REQUESTS holds a number or a string, not a boolean
    settings.set('CONCURRENT_REQUESTS', true);
    // @ts-expect-error ROBOTSTXT_OBEY is a boolean
    new Settings({ ROBOTSTXT_OBEY: 3 });
    settings.set('MY_SETTING', { any: 'thing' });
    expect([concurrency, level, file, unknownValue]).toEqual([16, 'DEBUG', null, undefined]);
  });
});

describe('Settings sources', () => {
  it("describes each priority's layer", () => {
    const settings = new Settings();
    settings.set('A', 1, 'command');
    settings.set('B', 1, 'project');
    settings.set('C', 1, 'cmdline');
    settings.set('D', 1, 'cmdline', '--loglevel INFO');
    expect(settings.getSource('BOT_NAME')).toBe("seine's defaults");
    expect(settings.getSource('A')).toBe("the command's defaults");
    expect(settings.getSource('B')).toBe("the project's settings");
    expect(settings.getSource('C')).toBe('the command line');
    expect(settings.getSource('D')).toBe('--loglevel INFO');
  });

  it('forgets the old source when a value is replaced', () => {
    const settings = new Settings();
    settings.set('A', 1, 'project', 'first');
    settings.set('A', 2, 'spider');
    expect(settings.getSource('A')).toBe("the spider's customSettings");
  });
});

describe('Settings freezing and copying', () => {
  it('throws a FrozenSettingsError naming the setting on any change after freeze()', () => {
    const settings = new Settings();
    settings.freeze();
    expect(settings.frozen).toBe(true);
    const message =
      'Cannot change setting CONCURRENT_REQUESTS: these settings are frozen because the crawl has started. ' +
      'Set it before the crawl starts (settings.ts, customSettings or -s), or change a settings.copy().';
    expect(() => settings.set('CONCURRENT_REQUESTS', 1)).toThrow(new FrozenSettingsError(message));
    expect(() => settings.setdict({ BOT_NAME: 'x' })).toThrow('Cannot change setting BOT_NAME: these settings are frozen');
    expect(() => settings.setdict({})).toThrow('Cannot change settings: these settings are frozen');
    expect(() => settings.delete('BOT_NAME')).toThrow('Cannot change setting BOT_NAME');
    expect(settings.get('CONCURRENT_REQUESTS')).toBe(16);
  });

  it('gives FrozenSettingsError the code SEINE_SETTINGS_FROZEN', () => {
    const settings = new Settings();
    settings.freeze();
    try {
      settings.set('A', 1);
      throw new Error('set did not throw');
    } catch (error) {
      expect(error).toBeInstanceOf(FrozenSettingsError);
      expect((error as FrozenSettingsError).code).toBe('SEINE_SETTINGS_FROZEN');
    }
  });

  it('makes an unfrozen deep copy with the same priorities and sources', () => {
    const settings = new Settings();
    settings.set('DEFAULT_REQUEST_HEADERS', { Accept: 'text/html' }, 'spider', 'test');
    settings.freeze();
    const copy = settings.copy();
    expect(copy.frozen).toBe(false);
    expect(copy.getPriority('DEFAULT_REQUEST_HEADERS')).toBe(30);
    expect(copy.getSource('DEFAULT_REQUEST_HEADERS')).toBe('test');
    copy.get('DEFAULT_REQUEST_HEADERS')['Accept'] = 'changed';
    copy.set('BOT_NAME', 'copy');
    expect(settings.get('DEFAULT_REQUEST_HEADERS')).toEqual({ Accept: 'text/html' });
    expect(settings.get('BOT_NAME')).toBe('seinebot');
  });

  it('shares class instances and functions between copies instead of cloning them', () => {
    class Pipeline {}
    const settings = new Settings({ MY_COMPONENTS: [Pipeline] });
    expect((settings.copy().get('MY_COMPONENTS') as unknown[])[0]).toBe(Pipeline);
  });

  it('returns a frozen copy from frozenCopy() and leaves the original unfrozen', () => {
    const settings = new Settings();
    const frozen = settings.frozenCopy();
    expect(frozen.frozen).toBe(true);
    expect(settings.frozen).toBe(false);
    expect(() => frozen.set('A', 1)).toThrow(FrozenSettingsError);
  });

  it('lists names and raw values', () => {
    const settings = Settings.empty();
    settings.set('B', '1');
    settings.set('A', [1]);
    expect(settings.names()).toEqual(['B', 'A']);
    expect(settings.toObject()).toEqual({ B: '1', A: [1] });
  });
});

describe('Settings.getWithBase', () => {
  it('overlays NAME on NAME_BASE, keeping null entries that disable built-ins', () => {
    const settings = new Settings({ DOWNLOADER_MIDDLEWARES: { RetryMiddleware: null, MyMiddleware: 543 } });
    const merged = settings.getWithBase('DOWNLOADER_MIDDLEWARES');
    expect(merged['RetryMiddleware']).toBeNull();
    expect(merged['MyMiddleware']).toBe(543);
    expect(merged['RobotsTxtMiddleware']).toBe(100);
    expect(Object.keys(merged)).toHaveLength(Object.keys(DEFAULT_SETTINGS.DOWNLOADER_MIDDLEWARES_BASE).length + 1);
  });
});
