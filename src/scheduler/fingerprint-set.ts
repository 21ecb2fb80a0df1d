/**
 * The duplicate filters' set of fingerprint strings, kept small. A
 * fingerprint that is 40 lowercase hex digits (src/http/fingerprint.ts's
 * SHA-1, Scrapy's) is stored as its 20 bytes in an open-addressing hash
 * table on typed arrays; any other string (a user's own fingerprint
 * function) goes to a plain Set. Each string has exactly one home, so the
 * set answers as a Set<string> of the same strings would.
 *
 * Why: a Set of 40-character strings costs ~90 bytes of V8 heap per entry
 * (a 56-byte string plus its share of the hash table), and it was the only
 * part of the heap that grew with the crawl (heap snapshots after 15,000 and
 * 45,000 pages of `npm run bench:soak`: +30,023 strings of 40 characters,
 * +1.7 MB, and the Set's table, +1 MB; nothing else grew). V8 sizes old space
 * to a multiple of the live heap, so the process's RSS grew ~3.5× as fast.
 * Here an entry costs 21 bytes / load factor (~25–49 bytes) outside the V8
 * heap (ArrayBuffers), and nothing per lookup is allocated.
 */

const WORDS = 5; // 20 bytes of a SHA-1 as five 32-bit words
// Linear probing stays cheap at 0.85 when most lookups find their key (a crawl's candidates are ~98 % duplicates):
// 200,000 adds and 14.8 million lookups took the same time as at 0.7, and the table doubles later
// (a 200,000-page soak's table stays at 5.5 MB instead of doubling to 11 at 183,500: docs/performance.md, issue 26).
const MAX_LOAD = 0.85;

// The words of the last fingerprint parsed by parseHex. A typed array, not five `let`s: a 32-bit
// value outside V8's small-integer range would be boxed (allocated) on every write to a variable.
const key = new Int32Array(WORDS);

/** The value of hex digit `code` ('0'–'9', 'a'–'f'), or -1. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** Parses 8 hex digits of `text` from `at`; -1 when one is not a lowercase hex digit. */
function parseWord(text: string, at: number): number {
  let word = 0;
  for (let i = at; i < at + 8; i++) {
    const digit = hexDigit(text.charCodeAt(i));
    if (digit < 0) return -1;
    word = word * 16 + digit;
  }
  return word;
}

/** Sets `key` from a 40-digit lowercase hex string; false for any other string. */
function parseHex(text: string): boolean {
  if (text.length !== 40) return false;
  for (let w = 0; w < WORDS; w++) {
    const word = parseWord(text, w * 8);
    if (word < 0) return false;
    key[w] = word;
  }
  return true;
}

/** A hash of `key` (all words count: a user's 40-hex fingerprint need not be uniform in its first word). */
function hashKey(): number {
  let h = Math.imul(key[0]! ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15) ^ key[1]!, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 13) ^ key[2]!, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15) ^ key[3]!, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 13) ^ key[4]!, 0x85ebca6b);
  return h ^ (h >>> 16);
}

/** A set of fingerprint strings: 40-hex-digit ones packed into 20 bytes each, others as strings. */
export class FingerprintSet {
  #words: Int32Array;
  /** 1 where a slot holds a fingerprint. */
  #used: Uint8Array;
  #mask: number;
  #packed = 0;
  #limit: number;
  readonly #others = new Set<string>();

  constructor(capacity = 1024) {
    let slots = 16;
    while (slots < capacity) slots *= 2;
    this.#words = new Int32Array(slots * WORDS);
    this.#used = new Uint8Array(slots);
    this.#mask = slots - 1;
    this.#limit = Math.floor(slots * MAX_LOAD);
  }

  get size(): number {
    return this.#packed + this.#others.size;
  }

  has(fingerprint: string): boolean {
    if (!parseHex(fingerprint)) return this.#others.has(fingerprint);
    return this.#find() >= 0;
  }

  /** Adds `fingerprint`; true when it was not in the set before. */
  add(fingerprint: string): boolean {
    if (!parseHex(fingerprint)) {
      const before = this.#others.size;
      this.#others.add(fingerprint);
      return this.#others.size !== before;
    }
    const slot = this.#find();
    if (slot >= 0) return false;
    this.#put(~slot);
    this.#packed++;
    if (this.#packed > this.#limit) this.#grow();
    return true;
  }

  /** The slot holding `key`, or ~(the free slot where it would go). */
  #find(): number {
    const words = this.#words;
    const used = this.#used;
    const mask = this.#mask;
    const k0 = key[0]!;
    for (let slot = hashKey() & mask; ; slot = (slot + 1) & mask) {
      if (used[slot] === 0) return ~slot;
      const at = slot * WORDS;
      if (words[at] === k0 && words[at + 1] === key[1] && words[at + 2] === key[2] && words[at + 3] === key[3] && words[at + 4] === key[4]) return slot;
    }
  }

  #put(slot: number): void {
    const at = slot * WORDS;
    this.#words.set(key, at);
    this.#used[slot] = 1;
  }

  #grow(): void {
    const oldWords = this.#words;
    const oldUsed = this.#used;
    const slots = oldUsed.length * 2;
    this.#words = new Int32Array(slots * WORDS);
    this.#used = new Uint8Array(slots);
    this.#mask = slots - 1;
    this.#limit = Math.floor(slots * MAX_LOAD);
    // `key` is scratch here: add() has already stored the fingerprint that triggered the growth.
    for (let old = 0; old < oldUsed.length; old++) {
      if (oldUsed[old] === 0) continue;
      for (let w = 0; w < WORDS; w++) key[w] = oldWords[old * WORDS + w]!;
      this.#put(~this.#find());
    }
  }
}
