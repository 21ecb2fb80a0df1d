import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { EngineState } from './engine-state.js';

/**
 * The fetch of a download that the scheduler did not hand out (Scrapy's
 * `crawler.engine.download`, which the media pipelines use): it waits for
 * its request's download slot as a scheduled request does in stage 3
 * (per-domain concurrency, DOWNLOAD_DELAY, a retry's backoff), holds the slot
 * while the handler downloads, then frees it and wakes the throttle stage.
 * Only the fetch is slotted, as in Scrapy's downloader: the downloader
 * middlewares around it (robots.txt, the HTTP cache) run outside the slot,
 * so a cached response waits for no delay. A crawl that aborts rejects the
 * wait.
 */
export function slottedFetch(state: EngineState, fetch: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return async (request) => {
    await waitForSlot(state, request);
    state.downloading.add(request);
    try {
      return await fetch(request);
    } finally {
      state.downloading.delete(request);
      try {
        state.slots.finished(request, state.now());
      } catch (error) {
        state.fault('throttle', request, error);
      }
      // The throttle stage and other slotted fetches wait on this subject for a slot to free.
      state.tickets.changed$.next();
    }
  };
}

function waitForSlot(state: EngineState, request: Request): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const signal = state.abort.signal;
    const done = (): void => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      wake.unsubscribe();
      signal.removeEventListener('abort', aborted);
    };
    const aborted = (): void => {
      done();
      reject(new Error(`${request.toString()} was not downloaded: the crawl was cancelled`));
    };
    const attempt = (): void => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      // got is loaded on the first download (EngineState.downloaderReady): the same wait here.
      if (!state.downloaderReady(attempt)) return;
      let verdict: true | number;
      try {
        verdict = state.slots.canStart(request, state.now());
        if (verdict === true) state.slots.started(request, state.now());
      } catch (error) {
        done();
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (verdict === true) {
        done();
        resolve();
      } else if (verdict !== Number.POSITIVE_INFINITY) {
        timer = setTimeout(attempt, Math.max(1, verdict));
      }
      // Infinity: the slot is full; a download ending (tickets.changed$) asks again.
    };
    const wake = state.tickets.changed$.subscribe(() => attempt());
    if (signal.aborted) return aborted();
    signal.addEventListener('abort', aborted, { once: true });
    attempt();
  });
}
