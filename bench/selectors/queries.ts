/**
 * queries.json, typed and checked. Both engines read the same file; parsel's
 * side (parsel_bench.py) relies on the same shape, so a malformed entry is
 * rejected here, before anything is timed, with the entry named.
 */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type Query = { css: string; xpath?: undefined } | { xpath: string; css?: undefined };

export interface ListingField {
  name: string;
  css: string;
  take: 'get' | 'getall';
  /** cssselect's translation of `css`; only the linkedom baseline uses it. */
  xpath: string;
}

export interface ListingQueries {
  entries: { css: string; xpath: string };
  fields: ListingField[];
  links: { css: string; take: 'getall'; xpath: string };
}

export interface QueryFile {
  /** Saved page file name → the queries run on it, each with getall(). */
  saved: Record<string, Query[]>;
  listing: ListingQueries;
}

export const QUERIES_PATH = fileURLToPath(new URL('./queries.json', import.meta.url));

/** `css:div.quote` / `xpath://a/@href`: the label both engines print for a query. */
export function describeQuery(query: Query): string {
  return query.css !== undefined ? `css:${query.css}` : `xpath:${query.xpath}`;
}

/** The label both engines give a listing field of entry `n` (1-based). */
export function listingFieldLabel(n: number, field: ListingField): string {
  return `entry ${n} ${field.name} (css:${field.css} .${field.take}())`;
}

export function listingLinksLabel(listing: ListingQueries): string {
  return `links (css:${listing.links.css})`;
}

function isString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function fail(path: string, where: string, what: string): never {
  throw new Error(`${path}: ${where} ${what}; fix the entry (see docs/performance.md for the format)`);
}

function checkQuery(path: string, where: string, value: unknown): Query {
  const q = value as { css?: unknown; xpath?: unknown } | null;
  if (q === null || typeof q !== 'object') fail(path, where, `is ${JSON.stringify(value)}, not an object`);
  if (isString(q.css) && q.xpath === undefined) return { css: q.css };
  if (isString(q.xpath) && q.css === undefined) return { xpath: q.xpath };
  return fail(path, where, `is ${JSON.stringify(value)}: it needs exactly one of "css" or "xpath", a non-empty string`);
}

export function loadQueries(path: string = QUERIES_PATH): QueryFile {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { saved?: unknown; listing?: Partial<ListingQueries> };
  if (raw.saved === null || typeof raw.saved !== 'object') fail(path, '"saved"', 'is missing');
  const saved: Record<string, Query[]> = {};
  for (const [file, list] of Object.entries(raw.saved as Record<string, unknown>)) {
    if (!Array.isArray(list)) fail(path, `"saved"."${file}"`, 'is not a list');
    saved[file] = list.map((q, i) => checkQuery(path, `"saved"."${file}"[${i}]`, q));
  }
  const listing = raw.listing;
  if (listing === undefined || !isString(listing.entries?.css) || !isString(listing.links?.css)) {
    fail(path, '"listing"', 'needs "entries" and "links", each with a "css" string');
  }
  for (const [i, field] of (listing.fields ?? []).entries()) {
    if (!isString(field.name) || !isString(field.css) || (field.take !== 'get' && field.take !== 'getall')) {
      fail(path, `"listing"."fields"[${i}]`, `is ${JSON.stringify(field)}: it needs "name", "css" and "take" ("get" or "getall")`);
    }
  }
  return { saved, listing: { entries: listing.entries!, fields: listing.fields ?? [], links: listing.links! } };
}
