/**
 * Scrapy's settings model: every value is stored with the priority it was set
 * at, a lower-priority `set()` never replaces a higher one, and the whole
 * object can be frozen once a crawl starts. Each value also remembers where
 * it came from (`-s CONCURRENT_REQUESTS=abc`, "the project's settings"), so a
 * value that cannot be read as its type is reported with its origin.
 *
 * `get()` of a known setting returns its schema type: a string from `-s` is
 * read as that type (Scrapy's `get()` would hand back the raw string). The
 * typed getters follow Scrapy's coercion rules for any name.
 */
import { coerceToKind, toBool, toDict, toFloat, toInt, toList, type ValueOrigin } from './coerce.js';
import { DEFAULT_SETTINGS } from './default-settings.js';
import { describePrioritySource, priorityValue, type Priority } from './priorities.js';
import {
  SETTING_KINDS,
  isSettingName,
  type SettingInput,
  type SettingName,
  type SettingValue,
  type SettingsInput,
} from './schema.js';
import { FrozenSettingsError } from './settings-error.js';
import { isPlainObject } from '../value-kinds.js';

interface Entry {
  value: unknown;
  priority: number;
  /** Set when the caller said where the value came from; otherwise derived from the priority. */
  source: string | undefined;
}

/** A setting name, with completion for the known ones. */
export type SettingKey = SettingName | (string & {});

// Plain data is copied so that a copy can be changed independently; class
// instances and functions (a user may store a component class) are shared.
function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = deepCopy(item);
    return copy as T;
  }
  return value;
}

export class Settings {
  readonly #entries = new Map<string, Entry>();
  #frozen = false;

  /** Scrapy's defaults at priority 'default', then `values` at `priority`. */
  constructor(values?: SettingsInput, priority: Priority = 'project') {
    this.setdict(DEFAULT_SETTINGS, 'default');
    if (values !== undefined) this.setdict(values, priority);
  }

  /** A settings object without seine's defaults (Scrapy's `BaseSettings`). */
  static empty(): Settings {
    const settings = new Settings();
    settings.#entries.clear();
    return settings;
  }

  get frozen(): boolean {
    return this.#frozen;
  }

  /**
   * Stores `value` under `name` unless the stored value has a higher
   * priority. `source` describes where the value came from for error
   * messages, e.g. `-s CONCURRENT_REQUESTS=8`.
   */
  set<K extends SettingKey>(name: K, value: SettingInput<K>, priority: Priority = 'project', source?: string): void {
    this.#assertMutable(name);
    const level = priorityValue(priority);
    const entry = this.#entries.get(name);
    if (entry === undefined) {
      this.#entries.set(name, { value, priority: level, source });
    } else if (level >= entry.priority) {
      entry.value = value;
      entry.priority = level;
      entry.source = source;
    }
  }

  /** `set()` for each entry of `values`, at one priority. */
  setdict(values: SettingsInput, priority: Priority = 'project', source?: string): void {
    this.#assertMutable(Object.keys(values)[0]);
    for (const [name, value] of Object.entries(values)) this.set(name, value, priority, source);
  }

  /** Removes a setting unless it was set at a higher priority than `priority`. */
  delete(name: SettingKey, priority: Priority = 'project'): void {
    this.#assertMutable(name);
    const entry = this.#entries.get(name);
    if (entry !== undefined && priorityValue(priority) >= entry.priority) this.#entries.delete(name);
  }

  has(name: SettingKey): boolean {
    return this.#entries.has(name);
  }

  /** Every stored name, in the order first set. */
  names(): string[] {
    return [...this.#entries.keys()];
  }

  /**
   * The value of `name`: for a known setting, read as its schema type (a
   * `SettingsError` if it cannot be); for other names, as stored (undefined
   * when unset).
   */
  get<K extends SettingKey>(name: K): SettingValue<K> {
    const entry = this.#entries.get(name);
    if (!isSettingName(name)) return entry?.value as SettingValue<K>;
    // A known setting that was deleted or never set (Settings.empty()) reads as its default, so the type holds.
    if (entry === undefined) return deepCopy(DEFAULT_SETTINGS[name]) as SettingValue<K>;
    return coerceToKind(SETTING_KINDS[name], entry.value, this.#origin(name, entry)) as SettingValue<K>;
  }

  /** The stored value exactly as set, without reading it as a type. */
  getRaw(name: SettingKey): unknown {
    return this.#entries.get(name)?.value;
  }

  /** Scrapy's getbool: 1/0, true/false, '1'/'0', 'True'/'False', 'true'/'false'. */
  getBool(name: SettingKey, defaultValue = false): boolean {
    return this.#typed(name, defaultValue, toBool);
  }

  /** Scrapy's getint: integers and integer strings; floats are truncated. */
  getInt(name: SettingKey, defaultValue = 0): number {
    return this.#typed(name, defaultValue, toInt);
  }

  getFloat(name: SettingKey, defaultValue = 0): number {
    return this.#typed(name, defaultValue, toFloat);
  }

  /** Scrapy's getlist: a copy of an array, or a string split on commas. */
  getList(name: SettingKey, defaultValue: readonly unknown[] = []): unknown[] {
    return this.#typed(name, defaultValue, toList);
  }

  /** Scrapy's getdict: a shallow copy of an object, or a string parsed as a JSON object. */
  getDict(name: SettingKey, defaultValue: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
    return this.#typed(name, defaultValue, toDict);
  }

  /**
   * Scrapy's getwithbase: `NAME_BASE` overlaid with `NAME`, e.g. the built-in
   * downloader middlewares with the project's additions and `null` removals.
   */
  getWithBase(name: SettingKey): Record<string, unknown> {
    return { ...this.getDict(`${name}_BASE`), ...this.getDict(name) };
  }

  /** The numeric priority `name` was set at, or undefined when it is not set. */
  getPriority(name: SettingKey): number | undefined {
    return this.#entries.get(name)?.priority;
  }

  /** Where the value of `name` came from, as error messages say it. */
  getSource(name: SettingKey): string | undefined {
    const entry = this.#entries.get(name);
    return entry === undefined ? undefined : this.#origin(name, entry).source;
  }

  /** The highest priority of any stored value; 'default' (0) when empty. */
  maxPriority(): number {
    let max = priorityValue('default');
    for (const entry of this.#entries.values()) max = Math.max(max, entry.priority);
    return max;
  }

  /** An unfrozen deep copy with the same values, priorities and sources. */
  copy(): Settings {
    const copy = Settings.empty();
    for (const [name, entry] of this.#entries) copy.#entries.set(name, { ...entry, value: deepCopy(entry.value) });
    return copy;
  }

  /** From now on every change throws a `FrozenSettingsError`. */
  /** `<Settings BOT_NAME='tutorial'>` where the shell lists its objects (`settings.get(NAME)` reads one). */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `<Settings BOT_NAME='${String(this.get('BOT_NAME'))}'>`;
  }

  freeze(): void {
    this.#frozen = true;
  }

  frozenCopy(): Settings {
    const copy = this.copy();
    copy.freeze();
    return copy;
  }

  /** The raw stored values as a plain object (Scrapy's copy_to_dict). */
  toObject(): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (const [name, entry] of this.#entries) result[name] = deepCopy(entry.value);
    return result;
  }

  #typed<T>(name: string, defaultValue: unknown, read: (value: unknown, origin: ValueOrigin) => T): T {
    const entry = this.#entries.get(name);
    // Like Scrapy, a value of None (null here) means "use the default".
    if (entry === undefined || entry.value === null || entry.value === undefined) {
      return read(defaultValue, { name, source: 'the default passed to the getter' });
    }
    return read(entry.value, this.#origin(name, entry));
  }

  #origin(name: string, entry: Entry): ValueOrigin {
    return { name, source: entry.source ?? describePrioritySource(entry.priority) };
  }

  #assertMutable(name: string | undefined): void {
    if (this.#frozen) {
      throw new FrozenSettingsError(
        `Cannot change ${name === undefined ? 'settings' : `setting ${name}`}: ` +
          'these settings are frozen because the crawl has started. ' +
          'Set it before the crawl starts (settings.ts, customSettings or -s), or change a settings.copy().',
      );
    }
  }
}
