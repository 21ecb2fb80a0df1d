import type { Item } from '../http/request.js';

/**
 * Scrapy's `arg_to_iter(ItemAdapter(item).get(field, []))`: the URLs an item
 * lists under `field` — a list, one string, or nothing.
 */
export function mediaUrls(item: Item, field: string): string[] {
  const value = (item as Record<string, unknown>)[field];
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (typeof value === 'object' && Symbol.iterator in value) return [...(value as Iterable<unknown>)].map(String);
  return [String(value)];
}

/**
 * Sets the results on the item as Scrapy's `ItemAdapter(item)[field] = …`
 * inside `suppress(KeyError)`: a plain object takes any field; an instance
 * of a class takes only a field it declares (Scrapy's Item and dataclass
 * items refuse an undeclared one, and the results are then not recorded).
 */
export function setMediaResults(item: Item, field: string, results: unknown[]): void {
  const proto = Object.getPrototypeOf(item) as unknown;
  const plain = proto === Object.prototype || proto === null;
  if (plain || field in item) (item as Record<string, unknown>)[field] = results;
}
