import { NotConfigured } from '../contracts/control-flow.js';
import type { ComponentClass } from '../contracts/components.js';
import type { Crawler } from '../contracts/crawler.js';
import { SeineError } from '../errors/seine-error.js';
import type { Settings } from '../settings/settings.js';

/**
 * Scrapy's component lists: `<NAME>_BASE` merged with the user's `<NAME>`,
 * ordered by number (lower runs first on the way in), a key mapped to null
 * disabled. Keys are built-in names or, for components written in code, the
 * classes themselves (a Map from class to order).
 */
export type ComponentOrderMap = Record<string, number | null> | Map<string | ComponentClass<unknown>, number | null>;

export class UnknownComponentError extends SeineError {
  static readonly code = 'SEINE_UNKNOWN_COMPONENT';
  constructor(setting: string, key: string, known: readonly string[]) {
    super(
      UnknownComponentError.code,
      `Unknown component '${key}' in ${setting}: use a built-in name (${known.join(', ') || 'none'}) or give the class itself, e.g. new Map([[MyPipeline, 300]])`,
    );
  }
}

function entries(map: ComponentOrderMap | undefined): Array<[string | ComponentClass<unknown>, number | null]> {
  if (map === undefined) return [];
  return map instanceof Map ? [...map.entries()] : Object.entries(map);
}

/**
 * A Scrapy project's dotted path of a component seine has built in
 * (`scrapy.pipelines.images.ImagesPipeline`) is that component's name, so
 * settings ported as they are keep working, `null` included.
 */
function builtInName(key: string, registry: ReadonlyMap<string, unknown>): string {
  if (!key.startsWith('scrapy.') || registry.has(key)) return key;
  const name = key.slice(key.lastIndexOf('.') + 1);
  return registry.has(name) ? name : key;
}

/** The classes to build, in order. */
export function orderedComponents<T>(
  setting: string,
  base: ComponentOrderMap | undefined,
  user: ComponentOrderMap | undefined,
  registry: ReadonlyMap<string, ComponentClass<T>>,
): Array<ComponentClass<T>> {
  const merged = new Map<string | ComponentClass<unknown>, number | null>();
  for (const [key, order] of entries(base)) merged.set(key, order);
  for (const [given, order] of entries(user)) {
    const key = typeof given === 'string' ? builtInName(given, registry) : given;
    // A class given by value replaces the built-in of the same name.
    const name = typeof key === 'function' ? key.name : key;
    if (typeof key === 'function' && merged.has(name) && registry.get(name) !== key) merged.delete(name);
    merged.set(key, order);
  }
  const out: Array<[number, number, ComponentClass<T>]> = [];
  let position = 0;
  for (const [key, order] of merged) {
    position++;
    if (order === null || order === undefined) continue;
    const cls = typeof key === 'function' ? (key as ComponentClass<T>) : registry.get(key);
    if (cls === undefined) throw new UnknownComponentError(setting, String(key), [...registry.keys()]);
    out.push([order, position, cls]);
  }
  out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return out.map(([, , cls]) => cls);
}

/** Builds each class (fromCrawler when it has one); those that throw NotConfigured are left out. */
export function buildComponents<T>(classes: Array<ComponentClass<T>>, crawler: Crawler): T[] {
  const built: T[] = [];
  for (const cls of classes) {
    try {
      built.push(cls.fromCrawler !== undefined ? cls.fromCrawler(crawler) : new cls());
    } catch (error) {
      if (error instanceof NotConfigured || (error as Error)?.name === 'NotConfigured') continue;
      throw error;
    }
  }
  return built;
}

/**
 * A component list as the user gave it. `settings.get` reads a dict setting
 * as a plain object, which turns a Map's class keys into their source text
 * (UnknownComponentError for `new Map([[MyPipeline, 300]])`); a Map is kept
 * as it is, anything else (an object, JSON from `-s`) is read as a dict.
 */
export function componentMap(settings: Settings, name: 'DOWNLOADER_MIDDLEWARES' | 'SPIDER_MIDDLEWARES' | 'ITEM_PIPELINES' | 'EXTENSIONS' | 'SPIDER_CONTRACTS'): ComponentOrderMap {
  const raw = settings.getRaw(name);
  return raw instanceof Map ? (raw as ComponentOrderMap) : (settings.get(name) as ComponentOrderMap);
}
