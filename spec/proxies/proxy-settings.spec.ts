import { describe, expect, it } from '@jest/globals';
import { proxyPoolSettings } from '../../src/proxies/proxy-settings.js';
import { Settings } from '../../src/settings/index.js';

// What `-s NAME=VALUE` gives: strings at the command line's priority.
function fromCommandLine(values: Record<string, string>): Settings {
  const settings = new Settings();
  for (const [name, value] of Object.entries(values)) settings.set(name, value, 'cmdline');
  return settings;
}

describe('PROXY_LIST from the command line', () => {
  it('reads a JSON array, as the other list settings do', () => {
    const read = proxyPoolSettings(fromCommandLine({ PROXY_LIST: '["http://u:p@127.0.0.1:8001", "socks5://127.0.0.1:1080"]' }));
    expect(read).toMatchObject({ list: ['http://u:p@127.0.0.1:8001', 'socks5://127.0.0.1:1080'], rotation: 'round-robin' });
  });

  it('reads a comma-separated string', () => {
    const read = proxyPoolSettings(fromCommandLine({ PROXY_LIST: 'http://127.0.0.1:8001, http://127.0.0.1:8002' }));
    expect(read).toMatchObject({ list: ['http://127.0.0.1:8001', 'http://127.0.0.1:8002'] });
  });
});
