import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { DEFAULT_SETTINGS } from '../../src/settings/default-settings.js';
import { SETTING_KINDS } from '../../src/settings/schema.js';
import { SEINE_VERSION } from '../../src/version.js';

const docs = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');

// Rows of the "Every setting" table: | `NAME` | type | `default` | meaning |
function documentedDefaults(): Map<string, string> {
  const rows = new Map<string, string>();
  const section = docs.slice(docs.indexOf('## Every setting'));
  for (const match of section.matchAll(/^\| `([A-Z0-9_]+)` \| [^|]+(?:\\\|[^|]+)* \| `(.*)` \| .+ \|$/gm)) {
    rows.set(match[1] ?? '', match[2] ?? '');
  }
  return rows;
}

describe('docs/settings.md', () => {
  it('lists exactly the settings that have defaults, in the same order', () => {
    expect([...documentedDefaults().keys()]).toEqual(Object.keys(DEFAULT_SETTINGS));
  });

  it("shows each setting's default as its JSON value", () => {
    for (const [name, shown] of documentedDefaults()) {
      const actual = JSON.stringify(DEFAULT_SETTINGS[name as keyof typeof DEFAULT_SETTINGS]).replace(SEINE_VERSION, '<version>');
      expect(`${name} = ${shown}`).toBe(`${name} = ${actual}`);
    }
  });

  it('has a kind for every default, so get() can read -s strings for all of them', () => {
    expect(Object.keys(SETTING_KINDS).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort());
  });
});

describe('DEFAULT_SETTINGS', () => {
  it("has seine's bot name and user agent", () => {
    expect(DEFAULT_SETTINGS.BOT_NAME).toBe('seinebot');
    expect(DEFAULT_SETTINGS.USER_AGENT).toBe(`seine/${SEINE_VERSION}`);
  });

  it("keeps Scrapy 2.8's values", () => {
    expect(DEFAULT_SETTINGS.CONCURRENT_REQUESTS).toBe(16);
    expect(DEFAULT_SETTINGS.CONCURRENT_REQUESTS_PER_DOMAIN).toBe(8);
    expect(DEFAULT_SETTINGS.DOWNLOAD_TIMEOUT).toBe(180);
    expect(DEFAULT_SETTINGS.DOWNLOAD_MAXSIZE).toBe(1073741824);
    expect(DEFAULT_SETTINGS.DOWNLOAD_WARNSIZE).toBe(33554432);
    expect(DEFAULT_SETTINGS.RETRY_HTTP_CODES).toEqual([500, 502, 503, 504, 522, 524, 408, 429]);
    expect(DEFAULT_SETTINGS.LOG_FORMAT).toBe('%(asctime)s [%(name)s] %(levelname)s: %(message)s');
    expect(DEFAULT_SETTINGS.LOG_DATEFORMAT).toBe('%Y-%m-%d %H:%M:%S');
    expect(DEFAULT_SETTINGS.TELNETCONSOLE_PORT).toEqual([6023, 6073]);
  });
});
