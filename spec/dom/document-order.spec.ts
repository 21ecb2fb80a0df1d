import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parseHtml } from '../../src/dom/parse-html.js';
import { numberTree, type DomNode } from '../../src/dom/node.js';

/** Every node of the tree, attributes after their element, in document order. */
function walk(root: DomNode): DomNode[] {
  const out: DomNode[] = [];
  const visit = (n: DomNode): void => {
    out.push(n, ...n.attrs);
    for (const c of n.children) visit(c);
  };
  visit(root);
  return out;
}

/** The parser numbers nodes as it adds them; that numbering must be what numberTree gives, and its array the walk's. */
function expectNumberedAsNumberTree(input: string): void {
  const doc = parseHtml(input);
  const orders = walk(doc).map((n) => n.order);
  const preorder = doc.preorder;
  numberTree(doc);
  expect([input, orders]).toEqual([input, walk(doc).map((n) => n.order)]);
  if (preorder !== undefined && preorder !== null) expect(preorder).toEqual(walk(doc));
}

const PIECES = ['<p>', '</p>', '<div class=a>', '</div>', '<html lang=x>', '</html>', '<body>', '</body>', '<head>', '<title>t</title>',
  '<!-- c -->', 'text', ' ', '<br>', '<table><tr><td>', '</td>', '<li>', '<ul>', '<!DOCTYPE html>', '<b>', '</b>', '<i x y=1>'];

describe('the HTML parser numbers the tree as it builds it', () => {
  it('as numberTree would, on the recorded lxml trees', () => {
    const recorded: Array<{ input: string }> = JSON.parse(readFileSync(new URL('../fixtures/dom/html-trees.json', import.meta.url), 'utf8'));
    for (const { input } of recorded) expectNumberedAsNumberTree(input);
  });

  it('as numberTree would, on generated markup, content after </html> and merged <html> attributes included', () => {
    let a = 26;
    const next = (): number => {
      a = (a * 1103515245 + 12345) & 0x7fffffff;
      return a / 0x80000000;
    };
    let ordered = 0;
    for (let i = 0; i < 3_000; i++) {
      let input = '';
      const length = 1 + Math.floor(next() * 16);
      for (let j = 0; j < length; j++) input += PIECES[Math.floor(next() * PIECES.length)]!;
      expectNumberedAsNumberTree(input);
      if (parseHtml(input).preorder !== undefined) ordered++;
    }
    expect(ordered).toBeGreaterThan(1_000);
  });

  it('leaves the numbering to numberTree when libxml2 puts a node back into <html>', () => {
    const doc = parseHtml('<html><body><p>a</p></body></html><!-- c --><p>b</p>');
    expect(doc.preorder).toBeUndefined();
    expectNumberedAsNumberTree('<html><body><p>a</p></body></html><!-- c --><p>b</p>');
    expectNumberedAsNumberTree('<html><p>a</p><html lang="en">');
  });
});
