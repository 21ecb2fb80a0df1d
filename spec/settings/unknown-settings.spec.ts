import { describe, expect, it } from '@jest/globals';
import { Settings } from '../../src/settings/settings.js';
import { closestSetting, unknownSettingWarnings } from '../../src/settings/unknown-settings.js';
import { Spider } from '../../src/index.js';
import { runCrawl } from '../helpers/site-server.js';

describe('settings seine does not know are reported', () => {
  it('a typo of one of seine\'s settings, from anywhere, with the name it is likely to be', () => {
    const settings = new Settings();
    settings.set('CONCURENT_REQUESTS', 3, 'project', 'settings.ts');
    settings.set('download_delay', 2, 'spider');
    expect(unknownSettingWarnings(settings)).toEqual([
      'Unknown setting CONCURENT_REQUESTS (from settings.ts): did you mean CONCURRENT_REQUESTS? seine ignores CONCURENT_REQUESTS',
      expect.stringMatching(/^Unknown setting download_delay \(from .+\): did you mean DOWNLOAD_DELAY\? seine ignores download_delay$/),
    ]);
  });

  it('any other name only when it comes from the command line; a project\'s own names are its components\' business', () => {
    const settings = new Settings();
    settings.set('MONGO_URI', 'mongodb://127.0.0.1', 'project', 'settings.ts');
    settings.set('MY_FLAG', '1', 'cmdline', '-s MY_FLAG=1');
    settings.set('CONCURRENT_REQUESTS', 4, 'cmdline', '-s CONCURRENT_REQUESTS=4');
    expect(unknownSettingWarnings(settings)).toEqual([
      'Unknown setting MY_FLAG (from -s MY_FLAG=1): seine has no such setting and ignores it (your own components can still read it); see docs/settings.md for the list',
    ]);
  });

  it('finds the closest known name within two letters, and nothing for a name far from all', () => {
    expect(closestSetting('DOWNLOAD_DELAYS')).toBe('DOWNLOAD_DELAY');
    expect(closestSetting('USERAGENT')).toBe('USER_AGENT');
    expect(closestSetting('MONGO_URI')).toBeNull();
  });

  it('a crawl logs them as warnings and runs on', async () => {
    class Quiet extends Spider {
      static override name = 'quiet';
      override startUrls: string[] = [];
      override parse() {}
    }
    const result = await runCrawl(Quiet, { CONCURENT_REQUESTS: 3 } as never);
    expect(result.reason).toBe('finished');
    expect(result.logs.filter((l) => l.logger === 'seine.settings').map((l) => [l.level, l.message])).toEqual([
      ['WARNING', expect.stringMatching(/^Unknown setting CONCURENT_REQUESTS .*did you mean CONCURRENT_REQUESTS\?/)],
    ]);
  });
});
