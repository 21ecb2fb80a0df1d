import { describe, expect, it } from '@jest/globals';
import { Response } from '../../src/http/response.js';
import { LinkExtractor } from '../../src/link-extractor/index.js';
import { hugeLinksPage } from '../helpers/huge-page.js';

/** A page with more links than a call's arguments can hold (issue 21: 150,000 links lost every one). */

const LINKS = 200_000;

describe('LinkExtractor on a page of 200,000 links', () => {
  it('extracts every link, in document order', () => {
    const response = new Response({ url: 'http://127.0.0.1:8000/', body: hugeLinksPage(LINKS), headers: { 'Content-Type': 'text/html' } });
    const links = new LinkExtractor().extractLinks(response);
    expect(links).toHaveLength(LINKS);
    expect(links[0]!.url).toBe('http://127.0.0.1:8000/p/0');
    expect(links[LINKS - 1]!.url).toBe(`http://127.0.0.1:8000/p/${LINKS - 1}`);
    expect(links[LINKS - 1]!.text).toBe(`link ${LINKS - 1}`);
  }, 60_000);

  it('gives the same links in slices of at most 1,000 candidates (extractLinkSlices), one slice for a small page', () => {
    const response = new Response({ url: 'http://127.0.0.1:8000/', body: hugeLinksPage(5500), headers: { 'Content-Type': 'text/html' } });
    const extractor = new LinkExtractor();
    const slices = [...extractor.extractLinkSlices(response)];
    expect(slices.map((slice) => slice.length)).toEqual([999, 1000, 1000, 1000, 1000, 501]);
    expect(slices.flat()).toEqual(extractor.extractLinks(response));
    const small = new Response({ url: 'http://127.0.0.1:8000/', body: hugeLinksPage(999), headers: { 'Content-Type': 'text/html' } });
    expect([...extractor.extractLinkSlices(small)].map((slice) => slice.length)).toEqual([999]);
  });
});
