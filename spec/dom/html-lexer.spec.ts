import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { Tokenizer } from 'htmlparser2';
import { lexHtml, type HtmlLexerCallbacks } from '../../src/dom/html-lexer.js';
import { parseHtml } from '../../src/dom/parse-html.js';
import { serializeHtml } from '../../src/dom/serialize-html.js';
import { hasNonXmlChars } from '../../src/dom/xml-chars.js';
import { listingPage } from '../../bench/selectors/listing-page.js';

/**
 * What the tree builder reads from each callback, as text: adjacent text
 * (and attribute data) joined, since the builder joins it too; the end
 * positions the builder ignores left out.
 */
class Recorder implements HtmlLexerCallbacks {
  readonly events: string[] = [];
  private pending = '';
  private pendingKind = '';
  constructor(private readonly src: string) {}
  private flush(): void {
    if (this.pendingKind !== '') this.events.push(`${this.pendingKind}:${this.pending}`);
    this.pending = this.pendingKind = '';
  }
  private join(kind: string, start: number, end: number): void {
    if (this.pendingKind !== kind) this.flush();
    this.pendingKind = kind;
    this.pending += this.src.slice(start, end);
  }
  private emit(event: string): void {
    this.flush();
    this.events.push(event);
  }
  ontext(start: number, end: number): void {
    this.join('text', start, end);
  }
  onopentagname(start: number, end: number): void {
    this.emit(`open:${this.src.slice(start, end)}`);
  }
  onattribname(start: number, end: number): void {
    this.emit(`attr@${start}:${this.src.slice(start, end)}`);
  }
  onattribdata(start: number, end: number): void {
    this.join('value', start, end);
  }
  onattribend(quote: number): void {
    this.emit(`attrend:${quote}`);
  }
  onopentagend(): void {
    this.emit('>');
  }
  onselfclosingtag(): void {
    this.emit('/>');
  }
  onclosetag(start: number, end: number): void {
    this.emit(`close:${this.src.slice(start, end)}`);
  }
  oncomment(start: number, end: number, offset: number): void {
    this.emit(`comment@${start}:${this.src.slice(start, end)}:${offset}`);
  }
  ondeclaration(start: number, end: number): void {
    this.emit(`decl@${start}:${this.src.slice(start, end)}`);
  }
  onend(): void {
    this.emit('end');
  }
  // htmlparser2 only
  ontextentity(): void {}
  onattribentity(): void {}
  oncdata(start: number, end: number, offset: number): void {
    this.emit(`cdata:${this.src.slice(start, end)}:${offset}`);
  }
  onprocessinginstruction(start: number, end: number): void {
    this.emit(`pi:${this.src.slice(start, end)}`);
  }
  tokenizer: Tokenizer | undefined;
  /** The tree builder's answer (parse-html.ts): only tags starting with `s` may be raw text. */
  isInForeignContext(): boolean {
    const at = (this.tokenizer as unknown as { index: number }).index;
    return (this.src.charCodeAt(at) | 0x20) !== 0x73;
  }
}

function htmlparser2Events(src: string): string[] {
  const recorder = new Recorder(src);
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: false, recognizeSelfClosing: true }, recorder);
  recorder.tokenizer = tokenizer;
  tokenizer.write(src);
  tokenizer.end();
  return recorder.events;
}

/** The fast lexer's events, or null when it hands the page back. */
function fastEvents(src: string): string[] | null {
  const recorder = new Recorder(src);
  return lexHtml(src, recorder) ? recorder.events : null;
}

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  '<', '>', '/', '</', '/>', '=', '"', "'", ' ', '\n', '\t', '-', '--', '!', '<!--', '-->', '--!>', '<!', '?', '&amp;',
  'a', 'b', 'p', 'div', 'DIV', 's', 'script', 'SCRIPT', 'style', 'Style', 'scripts', 'title', 'x:y', 'doctype', 'DOCTYPE',
  '<a href="x">', "<b class='c d'>", '<p id=u>', '<input checked>', '</a>', '</p >', '<br/>', '<script>', '</script>', '<style>',
  '</style', '<!DOCTYPE html>', '<!-- c -->', '<![CDATA[x]]>', '<?xml version="1.0"?>', '<?', 'text', 'é', '€',
];

function randomMarkup(next: () => number): string {
  let out = '';
  const length = 1 + Math.floor(next() * 30);
  for (let i = 0; i < length; i++) out += PIECES[Math.floor(next() * PIECES.length)]!;
  return out;
}

describe('lexHtml gives the tree builder what htmlparser2 gives it', () => {
  it('on the benchmark pages', () => {
    const dir = new URL('../../bench/selectors/pages/', import.meta.url);
    const pages = readdirSync(dir).map((f) => readFileSync(new URL(f, dir), 'utf8'));
    for (let i = 1; i <= 20; i++) pages.push(listingPage(i, 1000));
    for (const page of pages) expect(fastEvents(page)).toEqual(htmlparser2Events(page));
  });

  it('on the HTML fixtures of the selector and link extractor specs', () => {
    const dirs = ['../fixtures/selectors/docs/', '../fixtures/link-extractor/pages/'].map((d) => new URL(d, import.meta.url));
    let compared = 0;
    for (const dir of dirs) {
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.html'))) {
        const page = readFileSync(new URL(file, dir), 'latin1');
        const fast = fastEvents(page);
        if (fast === null) continue;
        compared++;
        expect([file, fast]).toEqual([file, htmlparser2Events(page)]);
      }
    }
    expect(compared).toBeGreaterThan(4);
  });

  it('on 20,000 generated pieces of markup, broken ones included', () => {
    const next = prng(26);
    let compared = 0;
    for (let i = 0; i < 20_000; i++) {
      const src = randomMarkup(next);
      const fast = fastEvents(src);
      if (fast === null) continue;
      compared++;
      expect([src, fast]).toEqual([src, htmlparser2Events(src)]);
    }
    // The fast path must take a fair share of them, or this compares little.
    expect(compared).toBeGreaterThan(5_000);
  });

  it('hands back what it does not cover', () => {
    for (const src of ['<?xml version="1.0"', '<![CDATA[x]]>', '<!x>', '</ p>', '<a/b>', '<a href="x', '<!-->', '<!--->', '<!-- open', '</a']) {
      expect([src, fastEvents(src)]).toEqual([src, null]);
    }
  });
});

describe('parseHtml through either lexer', () => {
  it('builds the same tree from a page the fast lexer hands back as from one it covers', () => {
    // The CDATA section sends the first page to htmlparser2; the rest of both pages is the same markup.
    const covered = '<html><body><p class=a>x<br/>y</p><script>if (a<b) {}</script></body></html>';
    const handedBack = covered.replace('<p', '<![CDATA[z]]><p');
    expect(hasNonXmlChars(handedBack)).toBe(false);
    expect(fastEvents(handedBack)).toBeNull();
    expect(serializeHtml(parseHtml(handedBack))).toBe(serializeHtml(parseHtml(covered)).replace('<p', '<!--[CDATA[z]]--><p'));
  });
});
