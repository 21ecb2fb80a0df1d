/**
 * HTTP headers as Scrapy users know them: names are case-insensitive, each
 * name holds a list of values (`Set-Cookie` comes many times), `get(name)`
 * gives the first value. Names keep the spelling they were first given.
 */
export type HeadersInit =
  | Headers
  | Readonly<Record<string, string | readonly string[] | number | undefined>>
  | Iterable<readonly [string, string | readonly string[]]>;

export class Headers {
  readonly #map = new Map<string, { name: string; values: string[] }>();

  constructor(init?: HeadersInit) {
    if (init === undefined) return;
    if (init instanceof Headers) {
      for (const [name, values] of init.entries()) this.setList(name, values);
    } else if (Symbol.iterator in init) {
      // Pairs, or the [name, values] entries of a Headers from another loaded copy of seine.
      for (const [name, value] of init as Iterable<readonly [string, string | readonly string[]]>) {
        if (typeof value === 'string') this.append(name, value);
        else for (const item of value) this.append(name, item);
      }
    } else {
      for (const [name, value] of Object.entries(init)) {
        if (value === undefined) continue;
        if (Array.isArray(value)) this.setList(name, value.map(String));
        else this.set(name, String(value));
      }
    }
  }

  /** The first value, or null. */
  get(name: string): string | null {
    return this.#map.get(name.toLowerCase())?.values[0] ?? null;
  }

  /** Every value (an empty list when absent). */
  getList(name: string): string[] {
    return [...(this.#map.get(name.toLowerCase())?.values ?? [])];
  }

  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }

  /** Replaces every value of `name` with `value`. */
  set(name: string, value: string): this {
    return this.setList(name, [value]);
  }

  /** Replaces every value of `name`; an empty list removes the header. */
  setList(name: string, values: readonly string[]): this {
    const key = name.toLowerCase();
    if (values.length === 0) {
      this.#map.delete(key);
    } else {
      const entry = this.#map.get(key);
      this.#map.set(key, { name: entry?.name ?? name, values: values.map(String) });
    }
    return this;
  }

  /** Sets the value only when the header is absent (Scrapy's `setdefault`). */
  setDefault(name: string, value: string): this {
    if (!this.has(name)) this.set(name, value);
    return this;
  }

  /** Adds a value after the ones `name` has. */
  append(name: string, value: string): this {
    const entry = this.#map.get(name.toLowerCase());
    if (entry === undefined) this.#map.set(name.toLowerCase(), { name, values: [String(value)] });
    else entry.values.push(String(value));
    return this;
  }

  delete(name: string): this {
    this.#map.delete(name.toLowerCase());
    return this;
  }

  /** [name as first given, values] pairs. */
  *entries(): IterableIterator<[string, string[]]> {
    for (const { name, values } of this.#map.values()) yield [name, [...values]];
  }

  [Symbol.iterator](): IterableIterator<[string, string[]]> {
    return this.entries();
  }

  get size(): number {
    return this.#map.size;
  }

  /** A plain object for an HTTP client: one string per name, or a list where a name repeats. */
  toObject(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const { name, values } of this.#map.values()) {
      const value = values.length === 1 ? values[0]! : [...values];
      // `out['__proto__'] = …` would set the object's prototype (a header lost, or an array's methods inherited).
      if (name === '__proto__') Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
      else out[name] = value;
    }
    return out;
  }

  copy(): Headers {
    return new Headers(this);
  }
}
