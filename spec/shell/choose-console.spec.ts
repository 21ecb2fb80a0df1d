import { describe, expect, it } from '@jest/globals';
import { chooseConsole } from '../../src/shell/console/choose-console.js';
import { ShellConsoleError } from '../../src/shell/shell-errors.js';

const all = (): boolean => true;

describe('chooseConsole', () => {
  it('defaults to ts, falling back to node when ts cannot start', () => {
    expect(chooseConsole({ isAvailable: all })).toBe('ts');
    expect(chooseConsole({ isAvailable: (kind) => kind === 'node' })).toBe('node');
  });

  it('takes SEINE_SHELL over seine.cfg', () => {
    expect(chooseConsole({ env: 'node', config: 'ts', isAvailable: all })).toBe('node');
    expect(chooseConsole({ env: 'ts', config: 'node', isAvailable: all })).toBe('ts');
    expect(chooseConsole({ config: 'node', isAvailable: all })).toBe('node');
    expect(chooseConsole({ env: '  ', config: 'node', isAvailable: all })).toBe('node');
  });

  it('reads a comma-separated list as "first available"', () => {
    expect(chooseConsole({ env: 'ts, node', isAvailable: (kind) => kind === 'node' })).toBe('node');
    expect(chooseConsole({ env: 'NODE,ts', isAvailable: all })).toBe('node');
  });

  it('rejects an unknown name, listing the consoles and where the name came from', () => {
    expect(() => chooseConsole({ env: 'ipython', isAvailable: all })).toThrow(ShellConsoleError);
    expect(() => chooseConsole({ env: 'ts,bpython', isAvailable: all })).toThrow("Unknown console 'bpython' in SEINE_SHELL: the consoles are ts, node");
    expect(() => chooseConsole({ config: 'python', isAvailable: all })).toThrow("Unknown console 'python' in 'shell' in seine.cfg");
  });

  it('finds the ts console available here (esbuild loads)', () => {
    expect(chooseConsole({})).toBe('ts');
  });
});
