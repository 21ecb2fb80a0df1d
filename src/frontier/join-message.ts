/**
 * What a worker that does not run start() says when it joins. It once read
 * "start() already ran … clear starts the crawl over" also when it joined a
 * running crawl, which sounded like the crawl was over: each case now says
 * whether the crawl is in progress or finished, and what `clear` would do.
 */

/** 'busy': another worker is running start(); 'done': start() ran, with the requests queued and leased as the worker joins. */
export type JoinState = { readonly state: 'busy' } | { readonly state: 'done'; readonly queued: number; readonly leases: number };

export function joinMessage(spider: string, join: JoinState): string {
  if (join.state === 'busy') return 'Joining a crawl in progress: another worker is running start(); this worker takes requests from the shared queue';
  const clear = `\`seine frontier ${spider} clear\``;
  if (join.queued > 0 || join.leases > 0) {
    return `Joining a crawl in progress (queued: ${join.queued}, in flight: ${join.leases}): another worker ran start(); this worker takes requests from the shared queue (${clear} would discard the shared crawl so that the next run starts over)`;
  }
  return `This crawl has finished (nothing queued or in flight): start() already ran, so this worker fetches nothing (${clear} discards it so that the next run starts over)`;
}
