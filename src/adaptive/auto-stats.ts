/** The stats of `meta.playwright: 'auto'` (docs/blocking.md, "Rendering only the pages that need it"). */
export const AUTO_STATS = {
  /** Pages whose plain download sufficed: not rendered. */
  plain: 'playwright/auto/plain',
  /** Pages sent straight to the browser: their kind was learned to need it. */
  rendered: 'playwright/auto/rendered',
  /** Pages downloaded plain, then rendered because the plain page did not suffice (or to compare). */
  renderedAfterPlain: 'playwright/auto/rendered_after_plain',
  /** Pages of a kind learned to need the browser that were tried plain again (PLAYWRIGHT_AUTO_RECHECK). */
  rechecks: 'playwright/auto/rechecks',
  /** Pages of a kind learned plain that yielded nothing plain and something rendered: the kind relearned. */
  mispredictionsCorrected: 'playwright/auto/mispredictions_corrected',
  /** Kinds of page learned (or relearned) to need the browser, and not to need it. */
  learnedBrowser: 'playwright/auto/learned_browser',
  learnedPlain: 'playwright/auto/learned_plain',
} as const;
