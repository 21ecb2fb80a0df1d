import { Selector } from '../selector/index.js';
import { escapeRegExp } from '../escape-regexp.js';

function lastMatch(regex: RegExp, text: string): RegExpExecArray | null {
  let last: RegExpExecArray | null = null;
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    last = m;
    if (m[0] === '') regex.lastIndex++;
  }
  return last;
}

/**
 * Scrapy's `xmliter` (XMLFeedSpider's default 'iternodes' iterator): each
 * `<nodename>…</nodename>` cut out of the text with a regular expression and
 * parsed alone, with the document's XML declaration before it, the closing
 * tags after the last node behind it, and the namespace declarations of
 * those enclosing elements copied onto it, so prefixed names still resolve.
 * It never parses the whole document, which is why Scrapy made it the
 * default for large feeds.
 */
export function* xmliter(text: string, nodename: string): Generator<Selector> {
  const name = escapeRegExp(nodename);
  const header = /<\?xml[^>]+>\s*/s.exec(text);
  const documentHeader = header === null ? '' : header[0].trim();
  const headerEndMatch = lastMatch(new RegExp(`<\\s*/${name}\\s*>`, 'gs'), text);
  const headerEndIndex = headerEndMatch === null ? -1 : headerEndMatch.index + headerEndMatch[0].length;
  const headerEnd = headerEndMatch === null ? '' : text.slice(headerEndIndex).trim();
  const namespaces = new Map<string, string>();
  if (headerEnd !== '') {
    const closing = [...headerEnd.matchAll(/<\s*\/([^\s>]+)\s*>/gs)].map((m) => m[1]!).reverse();
    const before = text.slice(0, headerEndIndex);
    for (const tagname of closing) {
      // The tag name goes into the pattern unescaped, as in Scrapy; one that is not a valid pattern declares nothing.
      let tag: RegExpExecArray | null;
      try {
        tag = new RegExp(`<\\s*${tagname}.*?xmlns[:=][^>]*>`, 's').exec(before);
      } catch {
        tag = null;
      }
      if (tag === null) continue;
      for (const decl of tag[0].matchAll(/((xmlns[:A-Za-z]*)=[^>\s]+)/gs)) namespaces.set(decl[2]!, decl[1]!);
    }
  }
  const declarations = [...namespaces.values()].join(' ');
  for (const match of text.matchAll(new RegExp(`<${name}[\\s>].*?</${name}>`, 'gs'))) {
    const node = match[0].replace(nodename, `${nodename} ${declarations}`);
    yield new Selector({ text: documentHeader + node + headerEnd, type: 'xml' });
  }
}
