import { SettingsError } from '../settings/settings-error.js';

/**
 * Reads one monitor's options from MONITORS, so a typo fails the crawl
 * at its start with one line naming the monitor and the option, rather
 * than a check that silently tests nothing.
 */
export class MonitorOptions {
  constructor(
    readonly monitor: string,
    readonly options: Record<string, unknown>,
    known: readonly string[],
  ) {
    for (const key of Object.keys(options)) {
      if (!known.includes(key)) throw this.error(`has no option '${key}' (its options: ${known.join(', ')})`);
    }
  }

  error(what: string): SettingsError {
    return new SettingsError(`MONITORS: ${this.monitor} ${what}`);
  }

  number(key: string, fallback: number | undefined, { rate = false } = {}): number | undefined {
    const value = this.options[key];
    if (value === undefined || value === null) return fallback;
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || (rate && n > 1)) {
      throw this.error(`option '${key}' must be ${rate ? 'a share between 0 and 1, e.g. 0.1' : 'a number ≥ 0'}, got ${JSON.stringify(value)}`);
    }
    return n;
  }

  strings(key: string, fallback: string[]): string[] {
    const value = this.options[key];
    if (value === undefined || value === null) return fallback;
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'string')) {
      throw this.error(`option '${key}' must be a list of strings, e.g. ['finished'], got ${JSON.stringify(value)}`);
    }
    return list as string[];
  }

  numbers(key: string, fallback: number[]): number[] {
    const value = this.options[key];
    if (value === undefined || value === null) return fallback;
    if (!Array.isArray(value) || value.length === 0 || !value.every((v) => Number.isInteger(v))) {
      throw this.error(`option '${key}' must be a list of status codes, e.g. [429, 403], got ${JSON.stringify(value)}`);
    }
    return value as number[];
  }

  rates(key: string): Record<string, number> {
    const value = this.options[key];
    if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length === 0) {
      throw this.error(`needs option '${key}': field → least share of items that have it, e.g. { ${key}: { author: 0.95 } }`);
    }
    const rates: Record<string, number> = {};
    for (const [field, rate] of Object.entries(value as Record<string, unknown>)) {
      if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
        throw this.error(`option '${key}': ${field} must be a share between 0 and 1, e.g. 0.95, got ${JSON.stringify(rate)}`);
      }
      rates[field] = rate;
    }
    return rates;
  }
}

export function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}
