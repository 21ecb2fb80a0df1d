/**
 * Seeded randomness and filler text for the benchmark pages.
 *
 * The pages must be byte-identical on every machine and every run, because
 * the two engines are compared on the same files and the saved pages are
 * committed: so a fixed-seed PRNG (mulberry32: tiny, fast, good enough for
 * picking words) and fixed vocabularies, never Math.random().
 */

export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('Prng.pick: the list is empty; pass at least one item');
    return item;
  }

  /** `count` distinct items, in the order drawn. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = items.slice();
    const out: T[] = [];
    while (out.length < count && pool.length > 0) {
      const i = Math.floor(this.next() * pool.length);
      out.push(pool.splice(i, 1)[0]!);
    }
    return out;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }
}

const WORDS = (
  'the of and to in is that it was for on are as with his they at be this from have or by one had ' +
  'not but what all were when we there can an your which their said if do will each about how up out ' +
  'them then she many some so these would other into has more her two like him see time could no make ' +
  'than first been its who now people my made over did down only way find use may water long little very ' +
  'after words called just where most know get through back much before go good new write our used me ' +
  'man too any day same right look think also around another came come work three word must because does ' +
  'part even place well such here take why things help put years different away again off went old number ' +
  'great tell men say small every found still between name should home big give air line set own under ' +
  'read last never us left end along while might next sound below saw something thought both few those ' +
  'always looked show large often together asked house world going want school important until form food ' +
  'keep children feet land side without boy once animals life enough took sometimes four head above kind ' +
  'began almost live page got earth need far hand high year mother light parts country father let night ' +
  'following picture being study second eyes soon times story boys since white days ever paper hard near ' +
  'sentence better best across during today others however sure means knew whole color river garden'
).split(' ');

export const FIRST_NAMES = [
  'Albert', 'Jane', 'Marilyn', 'Thomas', 'André', 'Eleanor', 'Mark', 'Allen', 'Steve', 'Charles',
  'Bob', 'George', 'Emily', 'Jorge', 'Ralph', 'Haruki', 'Madeleine', 'J.K.', 'Terry', 'Søren',
];
export const LAST_NAMES = [
  'Einstein', 'Austen', 'Monroe', 'Edison', 'Gide', 'Roosevelt', 'Twain', 'Saunders', 'Martin', 'Dickens',
  'Marley', 'Eliot', 'Dickinson', 'Borges', 'Emerson', 'Murakami', "L'Engle", 'Rowling', 'Pratchett', 'Kierkegaard',
];
export const TAGS = [
  'love', 'inspirational', 'life', 'humor', 'books', 'reading', 'friendship', 'friends', 'truth', 'simile',
  'world', 'change', 'deep-thoughts', 'thinking', 'adulthood', 'success', 'value', 'miracles', 'live', 'paraphrased',
  'aliteracy', 'classic', 'obvious', 'be-yourself', 'misattributed', 'attributed-no-source', 'music', 'science',
];
export const CATEGORIES = [
  'Travel', 'Mystery', 'Historical Fiction', 'Sequential Art', 'Classics', 'Philosophy', 'Romance', 'Womens Fiction',
  'Fiction', 'Childrens', 'Religion', 'Nonfiction', 'Music', 'Science Fiction', 'Sports and Games', 'Fantasy',
  'New Adult', 'Young Adult', 'Science', 'Poetry', 'Paranormal', 'Art', 'Psychology', 'Autobiography',
];

export function words(rng: Prng, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(rng.pick(WORDS));
  return out.join(' ');
}

/** A sentence: capitalised, 6–16 words, a full stop. */
export function sentence(rng: Prng): string {
  const text = words(rng, rng.int(6, 16));
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

export function sentences(rng: Prng, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(sentence(rng));
  return out.join(' ');
}

export function title(rng: Prng): string {
  return words(rng, rng.int(2, 5))
    .split(' ')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

export function personName(rng: Prng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A price such as `£51.77`, written with the entity half the time as real shops do. */
export function price(rng: Prng): string {
  const amount = `${rng.int(3, 99)}.${String(rng.int(0, 99)).padStart(2, '0')}`;
  return rng.chance(0.5) ? `&pound;${amount}` : `£${amount}`;
}

/** Escapes text for an HTML text node or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
