import type { Request } from '../http/request.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { Logger } from '../log/index.js';
import { SettingsError } from '../settings/settings-error.js';
import { pageKindOf } from './page-kind.js';
import { AUTO_STATS } from './auto-stats.js';

/** The meta key of a request rendered after its plain download did not suffice (see rendered-after-plain.ts). */
export const AFTER_PLAIN = '_playwright_auto_plain';

interface KindState {
  /** What the kind was last learned to need; undefined until its first page is judged. */
  needsBrowser: boolean | undefined;
  /**
   * Not judged yet, but its first plain page gave links and no item so far: it is being rendered to compare.
   * Meanwhile its pages go to the browser — the likelier answer — so the links that page gave (the next
   * listing) are not also downloaded plain first.
   */
  suspected: boolean;
  /** Pages of the kind sent to the browser since the last re-check (PLAYWRIGHT_AUTO_RECHECK). */
  sinceRecheck: number;
}

/**
 * What `meta.playwright: 'auto'` has learned in this crawl: per kind of page
 * (pageKindOf: host and callback), whether its pages need the browser.
 * The download handlers ask it before each 'auto' download (`wantsBrowser`);
 * the AdaptiveRenderingMiddleware tells it what each judged page showed
 * (`learn`). One per crawl, in memory: a new crawl learns again (a few
 * pages per kind).
 */
export class RenderingPredictor {
  readonly #kinds = new Map<string, KindState>();
  readonly #recheckEvery: number;
  readonly #stats: StatsCollector;
  readonly #logger: Logger;

  constructor(options: { recheckEvery: number; stats: StatsCollector; logger: Logger }) {
    this.#recheckEvery = options.recheckEvery;
    this.#stats = options.stats;
    this.#logger = options.logger;
  }

  /** The crawl's one predictor, built on first use from PLAYWRIGHT_AUTO_RECHECK. */
  static of(crawler: Pick<Crawler, 'settings' | 'stats' | 'logBus'>): RenderingPredictor {
    let predictor = predictors.get(crawler);
    if (predictor === undefined) {
      const recheckEvery = crawler.settings.getInt('PLAYWRIGHT_AUTO_RECHECK');
      if (!Number.isInteger(recheckEvery) || recheckEvery < 0) {
        throw new SettingsError(`Setting PLAYWRIGHT_AUTO_RECHECK must be a whole number ≥ 0 (0: never re-check), got ${JSON.stringify(crawler.settings.get('PLAYWRIGHT_AUTO_RECHECK'))}`);
      }
      predictor = new RenderingPredictor({ recheckEvery, stats: crawler.stats, logger: crawler.logBus.getLogger('seine.adaptive') });
      predictors.set(crawler, predictor);
    }
    return predictor;
  }

  /**
   * Whether this 'auto' request is downloaded in the browser: yes when it is
   * the rendering of a plain page that did not suffice, or when its kind was
   * learned to need the browser — except every PLAYWRIGHT_AUTO_RECHECK-th
   * page of such a kind, which is tried plain again (a re-check). An unknown
   * kind and a kind learned plain go plain.
   */
  wantsBrowser(request: Request): boolean {
    if (request.meta[AFTER_PLAIN] !== undefined) return true;
    const state = this.#kinds.get(pageKindOf(request));
    if (state === undefined || !(state.needsBrowser === true || (state.needsBrowser === undefined && state.suspected))) return false;
    // Counted across verdicts (never reset when one is learned), so re-checks come at the same pages however fast the verdicts arrive.
    if (this.#recheckEvery > 0 && ++state.sinceRecheck >= this.#recheckEvery) {
      state.sinceRecheck = 0;
      this.#stats.inc(AUTO_STATS.rechecks);
      return false;
    }
    return true;
  }

  /** What the kind of `request` is known to need: true (browser), false (plain), undefined (not judged yet). */
  knownNeed(request: Request): boolean | undefined {
    return this.#kinds.get(pageKindOf(request))?.needsBrowser;
  }

  /** A plain page of a kind not judged yet gave a link before any item: see KindState.suspected. */
  suspect(request: Request): void {
    const kind = pageKindOf(request);
    if (!this.#kinds.has(kind)) this.#kinds.set(kind, { needsBrowser: undefined, suspected: true, sinceRecheck: 0 });
  }

  /**
   * Records what a judged page showed about its kind. A change of mind (a
   * first verdict, a re-check that flips, a misprediction) is logged once at
   * INFO; the same verdict again changes nothing.
   */
  learn(request: Request, needsBrowser: boolean): void {
    const kind = pageKindOf(request);
    let state = this.#kinds.get(kind);
    if (state === undefined) {
      state = { needsBrowser: undefined, suspected: false, sinceRecheck: 0 };
      this.#kinds.set(kind, state);
    }
    state.suspected = false;
    if (state.needsBrowser === needsBrowser) return;
    const before = state.needsBrowser;
    state.needsBrowser = needsBrowser;
    this.#stats.inc(needsBrowser ? AUTO_STATS.learnedBrowser : AUTO_STATS.learnedPlain);
    if (needsBrowser) {
      this.#logger.info(`${kind}: pages need the browser; later ones go straight to it${before === false ? ' (they did not before)' : ''}`);
    } else {
      this.#logger.info(`${kind}: pages do not need the browser; later ones are downloaded plain${before === true ? ' (they needed it before)' : ''}`);
    }
  }
}

const predictors = new WeakMap<object, RenderingPredictor>();
