/**
 * Reading Scrapy's meta keys (`retry_times`, `redirect_urls`, …) from
 * `request.meta`, whose values are whatever user code put there.
 */

/** A finite number (or a numeric string), else undefined; null counts as unset, as Python's None. */
export function metaNumber(meta: Readonly<Record<string, unknown>>, key: string): number | undefined {
  const value = meta[key];
  if (value === null || value === undefined || value === '' || typeof value === 'boolean') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** An array's items, or [] when the key is not an array. */
export function metaArray(meta: Readonly<Record<string, unknown>>, key: string): unknown[] {
  const value = meta[key];
  return Array.isArray(value) ? [...(value as unknown[])] : [];
}

/** The numbers in a list such as `handle_httpstatus_list` (numeric strings count). */
export function metaStatuses(meta: Readonly<Record<string, unknown>>, key: string): number[] {
  return metaArray(meta, key).map(Number).filter(Number.isFinite);
}
