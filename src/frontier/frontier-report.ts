import { FLOAT_STATS } from '../stats/stats-dump.js';
import { pformat } from '../stats/pformat.js';
import type { FrontierStatus } from './frontier-client.js';
import { mergeStats } from './merge-stats.js';

/**
 * What `seine frontier <spider> status` shows: the state of the shared crawl
 * as Redis holds it, whichever worker (or none) is running.
 */
export type CrawlState = 'not started' | 'starting' | 'running' | 'waiting for workers' | 'paused' | 'finished';

export interface FrontierReport {
  readonly spider: string;
  readonly redis: string;
  readonly keys: string;
  readonly state: CrawlState;
  /** Requests waiting in the queue. */
  readonly queued: number;
  /** Requests a worker holds a lease on. */
  readonly leased: number;
  readonly done: number;
  readonly failed: number;
  /** Distinct requests the duplicate filter has let through (the Bloom filter's count with REDIS_DUPEFILTER=bloom). */
  readonly seen: number;
  /** item_scraped_count of the merged stats (as of each worker's last renewal). */
  readonly itemsScraped: number;
  /** Items kept in the crawl's Redis list (REDIS_ITEMS). */
  readonly itemsInRedis: number;
  /** Leases of stopped or dead workers that went back to the queue. */
  readonly reclaimed: number;
  readonly released: number;
  readonly workersAlive: readonly string[];
  /** Workers that joined the crawl and reported stats, or are alive now. */
  readonly workersJoined: number;
  /** How many workers' stats `stats` merges. */
  readonly statsOf: number;
  /** start(): 'not run', 'running' (on `owner`), 'interrupted' (its worker stopped; the next worker takes it over) or 'done'. */
  readonly start: { readonly state: 'not run' | 'running' | 'interrupted' | 'done'; readonly outputs: number | null; readonly owner: string | null };
  readonly createdAt: string | null;
  /** Every worker's last stats, merged (docs/distributed.md). */
  readonly stats: Record<string, unknown>;
}

const count = (meta: Readonly<Record<string, string>>, name: string): number => Number(meta[name] ?? 0) || 0;

function crawlState(status: FrontierStatus, queued: number): CrawlState {
  const { meta } = status;
  if (Object.keys(meta).length === 0 || (meta.start_state === undefined && queued === 0)) return meta.paused === '1' ? 'paused' : 'not started';
  if (meta.paused === '1') return 'paused';
  const startDone = meta.start_state === 'done';
  if (startDone && queued === 0 && status.leases === 0) return 'finished';
  if (status.workersAlive.length === 0) return 'waiting for workers';
  return startDone ? 'running' : 'starting';
}

export function frontierReport(spider: string, redis: string, keyPrefix: string, status: FrontierStatus): FrontierReport {
  const { meta } = status;
  const queued = count(meta, 'queued');
  const stats = mergeStats(Object.values(status.stats));
  return {
    spider,
    redis,
    keys: `${keyPrefix}*`,
    state: crawlState(status, queued),
    queued,
    leased: status.leases,
    done: count(meta, 'done'),
    failed: count(meta, 'failed'),
    seen: status.seen + count(meta, 'bloom_added'),
    itemsScraped: typeof stats.item_scraped_count === 'number' ? stats.item_scraped_count : 0,
    itemsInRedis: count(meta, 'items'),
    reclaimed: count(meta, 'reclaimed'),
    released: count(meta, 'released'),
    workersAlive: [...status.workersAlive].sort(),
    workersJoined: new Set([...Object.keys(status.stats), ...status.workersAlive]).size,
    statsOf: Object.keys(status.stats).length,
    start: startReport(status),
    createdAt: meta.created === undefined ? null : new Date(Number(meta.created)).toISOString(),
    stats,
  };
}

function startReport(status: FrontierStatus): FrontierReport['start'] {
  const { meta } = status;
  if (meta.start_state === 'done') return { state: 'done', outputs: null, owner: null };
  if (meta.start_state !== 'seeding') return { state: 'not run', outputs: null, owner: null };
  const owner = meta.start_owner ?? '';
  const outputs = count(meta, 'start_count');
  return status.workersAlive.includes(owner) ? { state: 'running', outputs, owner } : { state: 'interrupted', outputs, owner: null };
}

function startText(start: FrontierReport['start']): string {
  if (start.state === 'running') return `running on ${start.owner} (${start.outputs} outputs so far)`;
  if (start.state === 'interrupted') return `interrupted after ${start.outputs} outputs (the next worker to start takes it over)`;
  return start.state;
}

/** The report as lines of text, the merged stats last in the stats dump's format. */
export function formatFrontierReport(report: FrontierReport): string {
  const rows: Array<[string, string]> = [
    ['State', report.state],
    ['Queued', String(report.queued)],
    ['Leased', String(report.leased)],
    ['Done', `${report.done}${report.failed > 0 ? ` (${report.failed} failed)` : ''}`],
    ['Seen', String(report.seen)],
    ['Items', `${report.itemsScraped} scraped${report.itemsInRedis > 0 ? `, ${report.itemsInRedis} kept in Redis (REDIS_ITEMS)` : ''}`],
    ['Reclaimed', `${report.reclaimed} (leases of workers that died, back in the queue)`],
    ['Start', startText(report.start)],
    ['Workers', `${report.workersAlive.length} alive of ${report.workersJoined} that joined${report.workersAlive.length > 0 ? `: ${report.workersAlive.join(', ')}` : ''}`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length)) + 1;
  const lines = [`Crawl ${report.spider} at ${report.redis} (keys ${report.keys})`, ...rows.map(([name, value]) => `  ${`${name}:`.padEnd(width)} ${value}`)];
  if (report.state === 'not started') {
    lines.push(`Nothing in Redis for this crawl yet: start a worker with \`seine crawl ${report.spider} -s SCHEDULER=redis\` (check REDIS_URL and the spider's name if one runs)`);
  }
  if (report.statsOf > 0) {
    const stats: Record<string, unknown> = { ...report.stats };
    for (const key of ['start_time', 'finish_time']) if (typeof stats[key] === 'string') stats[key] = new Date(stats[key] as string);
    lines.push(report.statsOf === 1 ? 'Stats of its one worker:' : `Stats of ${report.statsOf} workers, merged:`, pformat(stats, { floatKeys: FLOAT_STATS }));
  }
  return `${lines.join('\n')}\n`;
}
