/**
 * The pages of `seine bench`'s local site, as a pure function of the request
 * URL (the shape of Scrapy's benchserver): any path answers with `show` links
 * to `/follow?…&n=K`, each K drawn at random from 1..`total`, the other query
 * arguments carried over. `total` (default 100) therefore bounds how many
 * distinct pages there are; `show` (default 10) is how many links each has.
 */

export interface BenchPage {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** A whole number ≥ 0 from the query, the default when absent, null when malformed. */
function wholeArg(params: URLSearchParams, name: string, fallback: number): number | null {
  const raw = params.get(name);
  if (raw === null) return fallback;
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

/**
 * Renders the page for `target` (a request's path and query). `random` is
 * injectable so tests can pin the links.
 *
 * Scrapy 2.8's server appends a new `n` to the previous ones (its query
 * arguments are keyed by bytes, the new one by str), so its URLs grow by one
 * `n` per hop and `total` bounds nothing; here `n` is replaced, which is what
 * the `total` argument is for.
 */
export function renderBenchPage(target: string, random: () => number = Math.random): BenchPage {
  const params = new URL(target, 'http://bench.invalid').searchParams;
  const total = wholeArg(params, 'total', 100);
  const show = wholeArg(params, 'show', 10);
  if (total === null || show === null || total < 1) {
    return { status: 400, contentType: 'text/plain; charset=utf-8', body: 'total must be a whole number of at least 1 and show a whole number\n' };
  }
  const links: string[] = [];
  for (let i = 0; i < show; i++) {
    const n = 1 + Math.floor(random() * total);
    const args = new URLSearchParams(params);
    args.set('n', String(n));
    links.push(`<a href='/follow?${args.toString()}'>follow ${n}</a><br>`);
  }
  return { status: 200, contentType: 'text/html; charset=utf-8', body: `<html><head></head><body>${links.join('')}</body></html>` };
}
