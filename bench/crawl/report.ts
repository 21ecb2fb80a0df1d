/**
 * The benchmark's printed report: one row per crawler, the checks that all
 * crawled the same site the same way, the ratio lines against the targets
 * (issue 26: ≥ 6× Scrapy's pages/s and ≤ 0.16× its CPU per page in the same
 * run, start-up included as users pay it; peak RSS ≤ 100 MB), and seine's
 * ratios to Crawlee (no target: for the record).
 */

import type { CrawlerMeasurement } from './crawler-run.js';
import type { SiteHits } from './site-server.js';

export const TARGET_SPEEDUP = 6;
/** seine's CPU per page ÷ Scrapy's, both measured from process start to exit. */
export const TARGET_CPU_RATIO = 0.16;
export const TARGET_RSS_MB = 100;

export interface CrawlerResult {
  measurement: CrawlerMeasurement;
  /** What the site served during this crawler's run. */
  hits: SiteHits;
}

export interface Row {
  crawler: string;
  pages: number;
  items: number;
  seconds: number;
  pagesPerSecond: number;
  cpuMsPerPage: number;
  peakRssMb: number;
}

const MB = 1024 * 1024;

export function toRow({ measurement: m, hits }: CrawlerResult): Row {
  return {
    crawler: m.crawler,
    pages: hits.pages,
    items: m.feedItems,
    seconds: m.wallSeconds,
    pagesPerSecond: hits.pages / m.wallSeconds,
    cpuMsPerPage: (m.cpuSeconds * 1000) / hits.pages,
    peakRssMb: m.peakRssBytes / MB,
  };
}

/**
 * One row per crawler from several interleaved rounds: each column's median
 * on its own (`--rounds N`). This machine's speed drifts by a quarter from
 * one minute to the next; a crawler measured once can land on a fast minute
 * and its peer on a slow one.
 */
export function medianRow(rows: readonly Row[]): Row {
  const median = (pick: (row: Row) => number): number => {
    const values = rows.map(pick).sort((a, b) => a - b);
    const middle = Math.floor(values.length / 2);
    return values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
  };
  return {
    crawler: rows[0]!.crawler,
    pages: median((r) => r.pages),
    items: median((r) => r.items),
    seconds: median((r) => r.seconds),
    pagesPerSecond: median((r) => r.pagesPerSecond),
    cpuMsPerPage: median((r) => r.cpuMsPerPage),
    peakRssMb: median((r) => r.peakRssMb),
  };
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—';
}

export function table(rows: readonly Row[]): string {
  const header = ['crawler', 'pages', 'items', 'seconds', 'pages/s', 'CPU ms/page', 'peak RSS MB'];
  const cells = rows.map((r) => [
    r.crawler,
    fixed(r.pages, 0),
    fixed(r.items, 0),
    fixed(r.seconds, 2),
    fixed(r.pagesPerSecond, 1),
    fixed(r.cpuMsPerPage, 2),
    fixed(r.peakRssMb, 1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/**
 * Problems that make the comparison unfair or the run suspect: a crawler
 * that failed, missed pages, scraped a different number of items, fetched a
 * page twice, or never asked for robots.txt (all obey it); each crawler
 * after the first (seine) is also compared with the first.
 */
export function warnings(results: readonly CrawlerResult[], sitePages: number, itemsPerPage: number): string[] {
  const out: string[] = [];
  for (const { measurement: m, hits } of results) {
    if (m.exitCode !== 0) out.push(`WARNING: ${m.crawler} exited with status ${m.exitCode}; see its log`);
    if (hits.distinctPages !== sitePages) out.push(`WARNING: ${m.crawler} crawled ${hits.distinctPages} of the site's ${sitePages} pages`);
    if (hits.pages !== hits.distinctPages) out.push(`WARNING: ${m.crawler} fetched ${hits.pages - hits.distinctPages} page(s) more than once (${hits.pages} fetches for ${hits.distinctPages} pages)`);
    if (m.feedItems !== hits.distinctPages * itemsPerPage) out.push(`WARNING: ${m.crawler} wrote ${m.feedItems} items to its feed; ${hits.distinctPages} pages hold ${hits.distinctPages * itemsPerPage}`);
    if (hits.notFound > 0) out.push(`WARNING: ${m.crawler} requested ${hits.notFound} URL(s) that are not pages of the site`);
    if (hits.robots === 0) out.push(`WARNING: ${m.crawler} never requested /robots.txt, which the settings say to obey`);
  }
  const [first, ...rest] = results;
  for (const other of rest) {
    const a = first!.measurement.crawler;
    const b = other.measurement.crawler;
    if (first!.hits.pages !== other.hits.pages) out.push(`WARNING: ${a} and ${b} crawled different numbers of pages (${first!.hits.pages} vs ${other.hits.pages})`);
    if (first!.measurement.feedItems !== other.measurement.feedItems) out.push(`WARNING: ${a} and ${b} scraped different numbers of items (${first!.measurement.feedItems} vs ${other.measurement.feedItems})`);
  }
  return out;
}

function verdict(pass: boolean): string {
  return pass ? 'PASS' : 'BELOW';
}

/** The ratio lines; `scrapy` or `crawlee` is null when that crawler was not run. */
export function ratioLines(seine: Row, scrapy: Row | null, crawlee: Row | null = null): string[] {
  const out: string[] = [];
  if (scrapy !== null) {
    const speed = seine.pagesPerSecond / scrapy.pagesPerSecond;
    out.push(`seine/Scrapy pages/s:      ${fixed(speed, 2)}×   target ≥ ${TARGET_SPEEDUP}×       ${verdict(speed >= TARGET_SPEEDUP)}`);
    const cpu = seine.cpuMsPerPage / scrapy.cpuMsPerPage;
    out.push(`seine/Scrapy CPU ms/page:  ${fixed(cpu, 2)}×   target ≤ ${TARGET_CPU_RATIO}×    ${verdict(cpu <= TARGET_CPU_RATIO)}`);
    out.push(`seine/Scrapy peak RSS:     ${fixed(seine.peakRssMb / scrapy.peakRssMb, 2)}×   (for the record)`);
  } else {
    out.push(`seine/Scrapy pages/s:      not measured (Scrapy was not run)   target ≥ ${TARGET_SPEEDUP}×`);
  }
  if (crawlee !== null) {
    out.push(`seine/Crawlee pages/s:     ${fixed(seine.pagesPerSecond / crawlee.pagesPerSecond, 2)}×   (for the record)`);
    out.push(`seine/Crawlee CPU ms/page: ${fixed(seine.cpuMsPerPage / crawlee.cpuMsPerPage, 2)}×   (for the record)`);
    out.push(`seine/Crawlee peak RSS:    ${fixed(seine.peakRssMb / crawlee.peakRssMb, 2)}×   (for the record)`);
  }
  out.push(`seine peak RSS:            ${fixed(seine.peakRssMb, 1)} MB   target ≤ ${TARGET_RSS_MB} MB   ${verdict(seine.peakRssMb <= TARGET_RSS_MB)}`);
  return out;
}
