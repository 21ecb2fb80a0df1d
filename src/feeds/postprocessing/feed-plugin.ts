/**
 * Scrapy's post-processing plugins (scrapy/extensions/postprocessing.py):
 * a feed option `postprocessing: ['GzipPlugin']` puts a chain of plugins
 * between the exporter and the file. A plugin is built with the target it
 * writes to (the next plugin, or the file) and the feed's options, and has
 * `write(data)` and `close()`, as in Scrapy; here both may return a promise,
 * and a plugin awaits its target's `write` so that a slow target holds it
 * back (backpressure) instead of piling bytes up in memory.
 */
import { FeedOptionError } from '../feed-errors.js';

/** A feed's options as the plugins see them: the FEEDS entry (`gzip_compresslevel`, …). */
export type FeedPluginOptions = Readonly<Record<string, unknown>>;

/** What a plugin writes to: the next plugin in the chain, or the feed's file. */
export interface FeedPluginTarget {
  /** Takes `data`; the promise (when there is one) settles once the target can take more. */
  write(data: Buffer): void | Promise<void>;
  /** Writes what is left and closes the target: a plugin closes its own target in its close(). */
  close(): void | Promise<void>;
  /** The file's name (its last path segment), as Python's file objects have one: GzipPlugin writes it into the gzip header. */
  readonly name?: string | undefined;
}

/** A plugin is itself a target for the plugin before it. */
export type FeedPlugin = FeedPluginTarget;

export interface FeedPluginClass {
  new (file: FeedPluginTarget, feedOptions: FeedPluginOptions): FeedPlugin;
  /**
   * Called when the crawl starts: built-in plugins check their options (a
   * FeedOptionError names the option) and load their package (a
   * DependencyMissingError if it cannot be), so a typo or a missing package
   * fails before anything is crawled rather than when the first batch closes.
   */
  check?(feedOptions: FeedPluginOptions): void;
}

/** An integer option within [min, max], or `fallback` when it is not given; a FeedOptionError otherwise. */
export function intOption(options: FeedPluginOptions, name: string, min: number, max: number, fallback: number): number {
  const value = options[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new FeedOptionError(`The feed option ${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(value)}`);
  }
  return value;
}

/** The value of option `name` among `choices` (by name, or by Python's constant's number), or `fallback`. */
export function choiceOption<T>(options: FeedPluginOptions, name: string, choices: ReadonlyArray<readonly [string, number, T]>, fallback: T): T {
  const value = options[name];
  if (value === undefined || value === null) return fallback;
  const found = choices.find(([label, number]) => value === label || value === number);
  if (found === undefined) {
    const names = choices.map(([label, number]) => `'${label}' (${number})`).join(', ');
    throw new FeedOptionError(`The feed option ${name} must be one of ${names}, not ${JSON.stringify(value)}`);
  }
  return found[2];
}
