/**
 * One priority's requests. Both kinds are array-backed so a push allocates
 * nothing but (amortised) array growth: the scheduler is on the per-link hot
 * path, where a 2,000-page crawl pushes ~140,000 candidate requests.
 */
export interface Bucket<T> {
  push(value: T): void;
  /** The next value in this bucket's order, or undefined when empty. */
  pop(): T | undefined;
  readonly size: number;
}

/** Last in, first out: a plain array stack. */
export class LifoBucket<T> implements Bucket<T> {
  readonly #items: T[] = [];

  push(value: T): void {
    this.#items.push(value);
  }

  pop(): T | undefined {
    return this.#items.pop();
  }

  get size(): number {
    return this.#items.length;
  }
}

/**
 * First in, first out: a ring buffer with a power-of-two capacity.
 * `Array.prototype.shift` would be O(n) per pop on large queues.
 */
export class FifoBucket<T> implements Bucket<T> {
  #items: (T | undefined)[] = new Array<T | undefined>(16);
  #head = 0;
  #size = 0;

  push(value: T): void {
    if (this.#size === this.#items.length) this.#grow();
    this.#items[(this.#head + this.#size) & (this.#items.length - 1)] = value;
    this.#size++;
  }

  pop(): T | undefined {
    if (this.#size === 0) return undefined;
    const value = this.#items[this.#head];
    this.#items[this.#head] = undefined; // let the request be collected
    this.#head = (this.#head + 1) & (this.#items.length - 1);
    this.#size--;
    return value;
  }

  get size(): number {
    return this.#size;
  }

  #grow(): void {
    const old = this.#items;
    const items = new Array<T | undefined>(old.length * 2);
    for (let i = 0; i < this.#size; i++) items[i] = old[(this.#head + i) & (old.length - 1)];
    this.#items = items;
    this.#head = 0;
  }
}
