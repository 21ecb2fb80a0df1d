/**
 * Which PROXY_TIERS tier each domain is at. Every domain starts at tier 0
 * (the cheapest); a failure or a block at the domain's current tier moves it
 * one tier up; after `stepDownAfter` successes in a row at a tier above 0 it
 * tries one tier down again, and a block there sends it back up. Outcomes
 * of requests sent at another tier than the domain's current one (in flight
 * when it moved) are ignored, so that a burst of failures moves a domain one
 * tier, not one per request.
 */
export class DomainTiers {
  readonly #top: number;
  readonly stepDownAfter: number;
  readonly #domains = new Map<string, { tier: number; successes: number }>();

  constructor(tierCount: number, stepDownAfter: number) {
    this.#top = tierCount - 1;
    this.stepDownAfter = stepDownAfter;
  }

  tierOf(domain: string): number {
    return this.#domains.get(domain)?.tier ?? 0;
  }

  /** Records an outcome at `tier`; returns the domain's tier afterwards. */
  record(domain: string, tier: number, ok: boolean): number {
    let state = this.#domains.get(domain);
    if (state === undefined) {
      state = { tier: 0, successes: 0 };
      this.#domains.set(domain, state);
    }
    if (tier !== state.tier) return state.tier;
    if (!ok) {
      state.successes = 0;
      if (state.tier < this.#top) state.tier += 1;
    } else if (state.tier > 0 && ++state.successes >= this.stepDownAfter) {
      state.tier -= 1;
      state.successes = 0;
    }
    return state.tier;
  }
}
