/**
 * LZMAPlugin: Scrapy's, over liblzma (the library Python's lzma module
 * wraps) through the lzma-native package, loaded on the first feed that
 * uses it. Options as Python's LZMAFile: `lzma_format` ('xz' 1, the
 * default; 'alone' 2, the legacy .lzma; 'raw' 3), `lzma_check` ('none' 0,
 * 'crc32' 1, 'crc64' 4 — xz's default —, 'sha256' 10; -1 is the default),
 * `lzma_preset` (0–9, optionally | 0x80000000 for extreme; default 6) and
 * `lzma_filters` (Python's filter chain: `[{ id: 33, preset: 9 }]`, ids as
 * Python's constants or their names: 'lzma1', 'lzma2', 'delta', 'x86', …).
 */
import type { Duplex } from 'node:stream';
import { lazyPackage } from '../../errors/lazy-package.js';
import { FeedOptionError } from '../feed-errors.js';
import { choiceOption, type FeedPluginOptions, type FeedPluginTarget } from './feed-plugin.js';
import { StreamPlugin } from './stream-plugin.js';

/** What seine uses of lzma-native (it ships no types). */
interface LzmaNative {
  createStream(coder: 'easyEncoder' | 'streamEncoder' | 'aloneEncoder' | 'rawEncoder', options: Record<string, unknown>): Duplex;
}

const lzmaNative = lazyPackage<LzmaNative>('lzma-native', 'the LZMAPlugin of feed post-processing');

const FORMATS = [
  ['xz', 1, 'xz'],
  ['alone', 2, 'alone'],
  ['raw', 3, 'raw'],
] as const;

// liblzma's check ids, which Python's CHECK_* constants are; lzma-native takes the same numbers.
const CHECKS = [
  ['default', -1, undefined],
  ['none', 0, 0],
  ['crc32', 1, 1],
  ['crc64', 4, 4],
  ['sha256', 10, 10],
] as const;

/** Python's FILTER_* constants (liblzma's filter ids) and lzma-native's names for them. FILTER_LZMA1 is 0x4000000000000001, which a double holds as 2**62. */
const FILTERS: ReadonlyArray<readonly [string, number, string]> = [
  ['lzma1', 2 ** 62, 'LZMA_FILTER_LZMA1'],
  ['lzma2', 0x21, 'LZMA_FILTER_LZMA2'],
  ['delta', 0x03, 'LZMA_FILTER_DELTA'],
  ['x86', 0x04, 'LZMA_FILTER_X86'],
  ['powerpc', 0x05, 'LZMA_FILTER_POWERPC'],
  ['ia64', 0x06, 'LZMA_FILTER_IA64'],
  ['arm', 0x07, 'LZMA_FILTER_ARM'],
  ['armthumb', 0x08, 'LZMA_FILTER_ARMTHUMB'],
  ['sparc', 0x09, 'LZMA_FILTER_SPARC'],
];

const PRESET_EXTREME = 0x80000000;

function presetOption(options: FeedPluginOptions): number | undefined {
  const value = options['lzma_preset'];
  if (value === undefined || value === null) return undefined;
  const level = typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value % PRESET_EXTREME : -1;
  if (level < 0 || level > 9 || (typeof value === 'number' && value >= 2 * PRESET_EXTREME)) {
    throw new FeedOptionError(`The feed option lzma_preset must be an integer from 0 to 9, optionally plus 0x80000000 (PRESET_EXTREME), not ${JSON.stringify(value)}`);
  }
  return value as number;
}

function filtersOption(options: FeedPluginOptions): Array<Record<string, unknown>> | undefined {
  const value = options['lzma_filters'];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.length > 4) {
    throw new FeedOptionError(`The feed option lzma_filters must be a list of 1 to 4 filters such as [{ "id": 33, "preset": 9 }], not ${JSON.stringify(value)}`);
  }
  return value.map((filter: unknown) => {
    if (filter === null || typeof filter !== 'object' || !('id' in filter)) {
      throw new FeedOptionError(`Each filter in the feed option lzma_filters needs an id (a FILTER_* number or a name: ${FILTERS.map(([name]) => name).join(', ')}), not ${JSON.stringify(filter)}`);
    }
    const { id, ...properties } = filter as { id: unknown } & Record<string, unknown>;
    const name = choiceOption({ lzma_filters_id: id }, 'lzma_filters_id', FILTERS, '');
    return { id: name, options: filterOptions(name, properties) };
  });
}

/** liblzma's preset 6, which Python starts an LZMA filter from before applying the options given. */
const PRESET_6 = { dict_size: 8 << 20, lc: 3, lp: 0, pb: 2, mode: 2, nice_len: 64, mf: 0x14, depth: 0 };
/** Python's LZMA filter option names and lzma-native's. */
const LZMA_OPTION_NAMES: Readonly<Record<string, string>> = { dict_size: 'dictSize', lc: 'lc', lp: 'lp', pb: 'pb', mode: 'mode', nice_len: 'niceLen', mf: 'mf', depth: 'depth' };

/** A Python filter's options as lzma-native reads them (it applies a preset after the other options, Python before). */
function filterOptions(name: string, properties: Record<string, unknown>): Record<string, unknown> {
  if (name === 'LZMA_FILTER_DELTA') return { dist: properties['dist'] ?? 1 };
  if (name !== 'LZMA_FILTER_LZMA1' && name !== 'LZMA_FILTER_LZMA2') return {};
  const { preset, ...rest } = properties;
  const unknown = Object.keys(rest).filter((key) => !(key in LZMA_OPTION_NAMES));
  if (unknown.length > 0) throw new FeedOptionError(`Unknown LZMA filter option ${unknown.join(', ')} in lzma_filters: use preset or ${Object.keys(LZMA_OPTION_NAMES).join(', ')}`);
  if (preset !== undefined && Object.keys(rest).length > 0) throw new FeedOptionError('An LZMA filter in lzma_filters takes either a preset or its options (dict_size, …), not both');
  if (preset !== undefined) return { preset };
  return Object.fromEntries(Object.entries({ ...PRESET_6, ...rest }).map(([key, value]) => [LZMA_OPTION_NAMES[key]!, value]));
}

/** The lzma-native coder and its options for the feed's options, checked as Python's LZMACompressor checks them. */
function coderFor(options: FeedPluginOptions): { coder: 'easyEncoder' | 'streamEncoder' | 'aloneEncoder' | 'rawEncoder'; settings: Record<string, unknown> } {
  const format = choiceOption(options, 'lzma_format', FORMATS, 'xz');
  const check = choiceOption<number | undefined>(options, 'lzma_check', CHECKS, undefined);
  const preset = presetOption(options);
  const filters = filtersOption(options);
  if (preset !== undefined && filters !== undefined) throw new FeedOptionError('The feed options lzma_preset and lzma_filters cannot both be given: the filters carry their own presets');
  if (format !== 'xz' && check !== undefined && check !== 0) throw new FeedOptionError(`The feed option lzma_check applies only to lzma_format 'xz': the ${format} format has no integrity check`);
  if (format === 'raw') {
    if (filters === undefined) throw new FeedOptionError("The feed option lzma_format 'raw' needs lzma_filters (a raw stream does not record them)");
    return { coder: 'rawEncoder', settings: { filters } };
  }
  if (format === 'alone') {
    if (filters === undefined) return { coder: 'aloneEncoder', settings: { preset: preset ?? 6 } };
    const [only, ...rest] = filters;
    if (rest.length > 0 || only!['id'] !== 'LZMA_FILTER_LZMA1') throw new FeedOptionError("The feed option lzma_format 'alone' takes one filter, lzma1");
    return { coder: 'aloneEncoder', settings: only!['options'] as Record<string, unknown> };
  }
  // Python's default check for .xz is CRC64 (lzma-native's, CRC32).
  const withCheck = { check: check ?? 4 };
  if (filters !== undefined) return { coder: 'streamEncoder', settings: { filters, ...withCheck } };
  return { coder: 'easyEncoder', settings: { preset: preset ?? 6, ...withCheck } };
}

export class LZMAPlugin extends StreamPlugin {
  static check(options: FeedPluginOptions): void {
    coderFor(options);
    lzmaNative();
  }

  constructor(file: FeedPluginTarget, feedOptions: FeedPluginOptions) {
    const { coder, settings } = coderFor(feedOptions);
    super(file, () => lzmaNative().createStream(coder, settings));
  }
}
