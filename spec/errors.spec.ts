/**
 * The error registry: every error class exported from src/error-registry.ts has a
 * static `code`, and docs/errors.md lists exactly those codes, each with its
 * class. New classes join by being exported from src/error-registry.ts; this test
 * then asks for their row in the docs.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import * as registry from '../src/error-registry.js';
import { SeineError } from '../src/errors/seine-error.js';

type ErrorClass = (abstract new (...args: never[]) => SeineError) & { readonly code?: unknown };

function exportedErrorClasses(): Map<string, ErrorClass> {
  const classes = new Map<string, ErrorClass>();
  for (const [name, value] of Object.entries(registry)) {
    if (typeof value === 'function' && value.prototype instanceof SeineError) classes.set(name, value as ErrorClass);
  }
  return classes;
}

// Rows of the registry table: | `CODE` | `Class` | meaning | what to do |
function documentedCodes(): Map<string, string> {
  const docs = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
  const rows = new Map<string, string>();
  for (const match of docs.matchAll(/^\| `(SEINE_[A-Z0-9_]+)` \| `(\w+)` \| (.+) \| (.+) \|$/gm)) {
    rows.set(match[1] ?? '', match[2] ?? '');
  }
  return rows;
}

describe('the error registry (src/error-registry.ts)', () => {
  it('exports SeineError and at least the settings, log and CLI errors', () => {
    expect(registry.SeineError).toBe(SeineError);
    expect([...exportedErrorClasses().keys()]).toEqual(
      expect.arrayContaining(['SettingsError', 'FrozenSettingsError', 'SetOptionError', 'LogFileError', 'UsageError']),
    );
  });

  it('gives every exported error class a static SEINE_ code', () => {
    const missing = [...exportedErrorClasses()]
      .filter(([, cls]) => typeof cls.code !== 'string' || !cls.code.startsWith('SEINE_'))
      .map(([name]) => `${name} needs a \`static readonly code = 'SEINE_…'\``);
    expect(missing).toEqual([]);
  });

  it('uses each code once', () => {
    const codes = [...exportedErrorClasses().values()].map((cls) => cls.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('lists in docs/errors.md exactly the exported classes with their codes', () => {
    const exported = new Map([...exportedErrorClasses()].map(([name, cls]) => [String(cls.code), name]));
    const documented = documentedCodes();
    expect(Object.fromEntries([...documented].sort())).toEqual(Object.fromEntries([...exported].sort()));
  });

  it('puts the static code on instances', () => {
    expect(new registry.SettingsError('m').code).toBe(registry.SettingsError.code);
    expect(new registry.FrozenSettingsError('m').code).toBe(registry.FrozenSettingsError.code);
    expect(new registry.SetOptionError('m').code).toBe(registry.SetOptionError.code);
    expect(new registry.LogFileError('m').code).toBe(registry.LogFileError.code);
    expect(new registry.UsageError('m').code).toBe(registry.UsageError.code);
  });

  it('names instances after their class and keeps them SeineErrors', () => {
    const error = new registry.UsageError('unknown option', { command: 'crawl' });
    expect(error).toBeInstanceOf(SeineError);
    expect(error.name).toBe('UsageError');
    expect(error.hint).toBe("run 'seine crawl --help' for usage");
    expect(registry.isSeineError(error)).toBe(true);
  });
});
