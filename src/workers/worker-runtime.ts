import type { Crawler } from '../contracts/crawler.js';
import type { Request } from '../http/request.js';
import { RedisScheduler } from '../scheduler/redis-scheduler.js';
import type { DownloadSlots } from '../throttle/download-slots.js';
import { IpcFrontierLink } from './ipc-frontier-link.js';
import { WORKER_ENV } from './worker-messages.js';

/** This process's number when it is a worker of a `--workers N` crawl (1…N), else null. */
export function workerNumber(): number | null {
  const value = process.env[WORKER_ENV];
  if (value === undefined || value === '' || process.send === undefined) return null;
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : null;
}

let link: IpcFrontierLink | null = null;

/** The worker's one link to its coordinator (the frontier, and the shared rates of DOWNLOAD_SLOTS). */
export function workerLink(): IpcFrontierLink {
  link ??= new IpcFrontierLink(process);
  return link;
}

/**
 * A worker's scheduler: the shared frontier's worker side
 * (RedisScheduler) over the IPC link instead of Redis. The coordinator's
 * Ctrl-C reaches it as a `stop` (the worker itself ignores the terminal's
 * signals, which reach every process of the group); a coordinator that
 * vanished ends it at once, as a second Ctrl-C ends one process.
 */
export function workerScheduler(crawler: Crawler, number: number, fingerprint: (request: Request) => string, slots: DownloadSlots | undefined): RedisScheduler {
  const ipc = workerLink();
  ipc.onStop(() => crawler.close('shutdown'));
  ipc.onGone(() => process.exit(1));
  const scheduler = new RedisScheduler(crawler, {
    fingerprint,
    ...(slots === undefined
      ? {}
      : {
          slotKey: (request: Request) => slots.slotKey(request),
          slotDelayMs: (key: string) => slots.slot(key)?.delayMs,
        }),
    link: { client: ipc, joined: `Worker ${number} (pid ${process.pid}) crawls what the coordinator (pid ${process.ppid}) hands out` },
  });
  slots?.whenPaused((key, untilMs) => scheduler.pauseSlot(key, untilMs - Date.now()));
  return scheduler;
}

/** What a worker runs with, over the user's settings: the coordinator writes the feeds, keeps JOBDIR and dumps the stats. */
export const WORKER_SETTINGS: Readonly<Record<string, unknown>> = {
  FEEDS: {},
  JOBDIR: null,
  STATS_DUMP: false,
  // The coordinator's LogStats counts every worker's pages (their stats reach it every second).
  LOGSTATS_INTERVAL: 0,
  TELNETCONSOLE_ENABLED: false,
  DASHBOARD_ENABLED: false,
  MONITORS: {},
  MONITORS_PERIODIC: {},
  WORKERS: 1,
  LOG_FILE_APPEND: true,
  // The crawl's limits count over all workers, in the coordinator (WorkerHub): a worker alone would stop at its own count.
  CLOSESPIDER_TIMEOUT: 0,
  CLOSESPIDER_ITEMCOUNT: 0,
  CLOSESPIDER_PAGECOUNT: 0,
  CLOSESPIDER_ERRORCOUNT: 0,
};
