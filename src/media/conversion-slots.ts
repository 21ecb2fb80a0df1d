/**
 * How many images are converted at once, crawl-wide: as many as libuv has
 * threads (UV_THREADPOOL_SIZE, 4 by default), since sharp runs each job on
 * one of them and more would only wait in libuv's queue. Waiting here
 * instead, an image has no sharp objects yet: they live a few milliseconds,
 * die young, and are not promoted to V8's old generation. On bench:media
 * (1,000 images, alternated runs) peak RSS went from 178–179 MB to 165–169
 * MB at the same images/s.
 */
const SLOTS = Math.max(1, Number(process.env.UV_THREADPOOL_SIZE) || 4);

class Slots {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    // A finished job hands its slot to the first in line, so a newcomer cannot take it in between.
    if (this.#running >= this.size) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running++;
    try {
      return await job();
    } finally {
      const next = this.#waiting.shift();
      if (next === undefined) this.#running--;
      else next();
    }
  }
}

export const conversionSlots = new Slots(SLOTS);
