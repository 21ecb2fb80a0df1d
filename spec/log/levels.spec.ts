import { describe, expect, it } from '@jest/globals';
import { LOG_LEVELS, isLogLevel, parseLogLevel } from '../../src/settings/log-levels.js';

describe('log levels', () => {
  it("has Python logging's numbers", () => {
    expect(LOG_LEVELS).toEqual({ DEBUG: 10, INFO: 20, WARNING: 30, ERROR: 40, CRITICAL: 50 });
  });

  it('reads names in any case, the WARN and FATAL aliases, and level numbers', () => {
    expect(['debug', ' Info ', 'WARNING', 'warn', 'error', 'fatal', 'Critical', 30].map(parseLogLevel)).toEqual([
      'DEBUG', 'INFO', 'WARNING', 'WARNING', 'ERROR', 'CRITICAL', 'CRITICAL', 'WARNING',
    ]);
  });

  it('returns undefined for anything else', () => {
    expect(['LOUD', '', 25, null, true].map(parseLogLevel)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('accepts only exact upper-case names in isLogLevel', () => {
    expect(isLogLevel('INFO')).toBe(true);
    expect(isLogLevel('info')).toBe(false);
  });
});
