import { pythonRepr } from '../python/str-repr.js';

/**
 * One link a LinkExtractor found: Scrapy's `Link`. `fragment` is always ''
 * from the extractor (Scrapy never fills it either); it exists so code
 * ported from Scrapy that builds Links by hand keeps working.
 */
export class Link {
  url: string;
  text: string;
  fragment: string;
  nofollow: boolean;

  constructor(url: string, text = '', fragment = '', nofollow = false) {
    if (typeof url !== 'string') throw new TypeError(`Link urls must be strings, got ${url === null ? 'null' : typeof url}`);
    this.url = url;
    this.text = text;
    this.fragment = fragment;
    this.nofollow = nofollow;
  }

  /** Value equality, as Scrapy's `Link.__eq__`. */
  equals(other: Link): boolean {
    return this.url === other.url && this.text === other.text && this.fragment === other.fragment && this.nofollow === other.nofollow;
  }

  /** A string equal for equal links: the key of sets of links (Scrapy hashes the four fields). */
  key(): string {
    return JSON.stringify([this.url, this.text, this.fragment, this.nofollow]);
  }

  /** `Link(url='…', text='…', fragment='', nofollow=False)`, as Scrapy prints one. */
  toString(): string {
    return `Link(url=${pythonRepr(this.url)}, text=${pythonRepr(this.text)}, fragment=${pythonRepr(this.fragment)}, nofollow=${this.nofollow ? 'True' : 'False'})`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

