/**
 * FEED_EXPORT_ENCODING / a feed's `encoding`, by Python's codec names.
 * Node's Buffer would silently keep the low byte of a character that
 * latin-1 cannot hold; Python raises or, with an error handler, replaces.
 * Here the XML exporter writes a character reference (as Python's
 * XMLGenerator does) and the others a `?` (Python's `errors="replace"`):
 * a feed is never cut short by one odd character.
 */
import { FeedConfigError } from './feed-errors.js';

export type FeedEncoding = 'utf-8' | 'latin-1' | 'ascii';
export type Unencodable = 'replace' | 'xmlcharrefreplace';

const ALIASES: Record<string, FeedEncoding> = {
  'utf-8': 'utf-8', utf8: 'utf-8', u8: 'utf-8',
  'latin-1': 'latin-1', latin1: 'latin-1', 'iso-8859-1': 'latin-1', 'iso8859-1': 'latin-1', l1: 'latin-1',
  ascii: 'ascii', 'us-ascii': 'ascii',
};

export function feedEncoding(name: string, feed: string): FeedEncoding {
  const encoding = ALIASES[name.toLowerCase().replaceAll('_', '-')];
  if (encoding === undefined) {
    throw new FeedConfigError(`Unknown encoding '${name}' for the feed '${feed}': use utf-8, latin-1 or ascii`);
  }
  return encoding;
}

/** Text as bytes in `encoding`; characters it cannot hold become `?` or `&#NNNN;`. */
export function encodeText(text: string, encoding: FeedEncoding, errors: Unencodable = 'replace'): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  const max = encoding === 'latin-1' ? 0xff : 0x7f;
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    out += code <= max ? ch : errors === 'replace' ? '?' : `&#${code};`;
  }
  return Buffer.from(out, 'latin1');
}
