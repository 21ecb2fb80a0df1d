/**
 * A store that spaces the starts of one slot over every worker of a shared
 * crawl (SCHEDULER = 'redis': src/frontier's RedisRateBuckets). The throttle
 * decides synchronously, so it never waits on this: it asks for the next
 * start ahead of need and answers "wait" until the reply is in.
 */
export interface SharedRate {
  /**
   * Reserves the next start of `slot` over all workers, `intervalMs` after
   * the one reserved before it (a bucket of one token, held in the store).
   * Resolves with the milliseconds from now until the reserved start (0: at
   * once). A reservation not used is lost: the crawl only gets slower.
   */
  reserve(slot: string, intervalMs: number): Promise<number>;
}
