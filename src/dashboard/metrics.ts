/**
 * `/metrics`: the crawl's figures in Prometheus's text format, through
 * prom-client (loaded with the first scrape). Counters are read from the
 * dashboard's snapshot at each scrape, so they match the page.
 */
import { lazyPackage } from '../errors/lazy-package.js';
import type { DashboardSnapshot } from './crawl-watch.js';

type PromClient = typeof import('prom-client');
const promClient = lazyPackage<PromClient>('prom-client', 'the dashboard\'s /metrics');

export interface CrawlMetrics {
  readonly contentType: string;
  text(): Promise<string>;
}

export function crawlMetrics(snapshot: () => DashboardSnapshot): CrawlMetrics {
  const client = promClient();
  const registry = new client.Registry();
  let current: DashboardSnapshot | undefined;
  const read = (): DashboardSnapshot => (current ??= snapshot());
  const counter = (name: string, help: string, value: (s: DashboardSnapshot) => number): void => {
    new client.Counter({
      name, help, registers: [registry],
      collect() {
        this.reset();
        this.inc(value(read()));
      },
    });
  };
  counter('seine_requests_total', 'Requests handed to the downloader', (s) => s.totals.requests);
  counter('seine_items_scraped_total', 'Items scraped', (s) => s.totals.items);
  counter('seine_errors_total', 'Download, spider, item and engine errors', (s) => s.totals.errors);
  new client.Counter({
    name: 'seine_responses_total', help: 'Responses received, by HTTP status', labelNames: ['status'], registers: [registry],
    collect() {
      this.reset();
      for (const [status, count] of Object.entries(read().statuses)) this.inc({ status }, count);
    },
  });
  new client.Gauge({
    name: 'seine_slot_active_requests', help: 'Requests in flight, by download slot', labelNames: ['slot'], registers: [registry],
    collect() {
      this.reset();
      for (const slot of read().slots) this.set({ slot: slot.key }, slot.active);
    },
  });
  new client.Counter({
    name: 'seine_slot_bans_total', help: '429 and 403 responses, by download slot', labelNames: ['slot', 'status'], registers: [registry],
    collect() {
      this.reset();
      for (const slot of read().slots) for (const [status, count] of Object.entries(slot.bans)) this.inc({ slot: slot.key, status }, count);
    },
  });
  new client.Gauge({
    name: 'seine_crawl_paused', help: '1 while the crawl is paused from the dashboard', registers: [registry],
    collect() {
      this.set(read().state === 'paused' ? 1 : 0);
    },
  });
  return {
    contentType: registry.contentType,
    async text() {
      current = undefined;
      try {
        return await registry.metrics();
      } finally {
        current = undefined;
      }
    },
  };
}
