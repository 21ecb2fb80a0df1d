import { NAMED_ENTITIES } from '../dom/html-rules.generated.js';
import { BadArgumentError } from './bad-argument-error.js';

/**
 * parsel's `re()`: a named group `extract` gives that group of the first
 * match; otherwise every match, or the values of its groups flattened. Then
 * character references are replaced except `&lt;` and `&amp;` (w3lib's
 * replace_entities with keep=['lt', 'amp']), as parsel does by default.
 */

const cache = new Map<string, RegExp>();

/** Python's inline flags at the start of a pattern (`(?i)`, `(?is)` …) that JavaScript has as flags. */
const LEADING_FLAGS = /^\(\?([aiLmsux]+)\)/;
const JS_FLAGS: Readonly<Record<string, string>> = { i: 'i', m: 'm', s: 's', u: '', a: '' };

/**
 * A pattern string is read as Python's `re` reads it: `(?P<name>…)`,
 * `(?P=name)` and leading inline flags `(?i)`, `(?m)`, `(?s)` are accepted.
 * A pattern neither reads (`(`, or `(?x)`, which JavaScript lacks) is a
 * BadArgumentError naming it, as parsel raises re.error.
 */
export function toGlobalRegExp(regex: RegExp | string): RegExp {
  if (typeof regex !== 'string') {
    return regex.global ? new RegExp(regex.source, regex.flags) : new RegExp(regex.source, regex.flags + 'g');
  }
  let compiled = cache.get(regex);
  if (compiled === undefined) {
    let flags = 'g';
    let body = regex;
    const inline = LEADING_FLAGS.exec(regex);
    if (inline !== null) {
      for (const flag of inline[1]!) {
        const js = JS_FLAGS[flag];
        if (js === undefined) throw new BadArgumentError('re()', 'the pattern', 'a regular expression', regex, `${JSON.stringify(regex)}: the inline flag (?${flag}) has no JavaScript counterpart`);
        if (!flags.includes(js)) flags += js;
      }
      body = regex.slice(inline[0].length);
    }
    const source = body.replace(/\(\?P<(\w+)>/g, '(?<$1>').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
    try {
      compiled = new RegExp(source, flags);
    } catch (error) {
      throw new BadArgumentError('re()', 'the pattern', 'a regular expression', regex, `${JSON.stringify(regex)}: ${(error as Error).message}`);
    }
    if (cache.size > 500) cache.clear();
    cache.set(regex, compiled);
  }
  compiled.lastIndex = 0;
  return compiled;
}

export function extractRegex(regex: RegExp | string, text: string, replaceEntities = true): string[] {
  const re = toGlobalRegExp(regex);
  const strings: string[] = [];
  if (/\(\?<extract>|\(\?P<extract>/.test(typeof regex === 'string' ? regex : regex.source)) {
    re.lastIndex = 0;
    const match = re.exec(text);
    const value = match?.groups?.['extract'];
    if (value !== undefined) strings.push(value);
  } else {
    for (const match of text.matchAll(re)) {
      if (match.length === 1) strings.push(match[0]);
      else for (let i = 1; i < match.length; i++) strings.push(match[i] ?? '');
      if (match[0] === '') re.lastIndex++;
    }
  }
  return replaceEntities ? strings.map(replaceEntitiesKeepingLtAmp) : strings;
}

const ENTITY = /&(?:([a-z\d]+)|#(\d+)|#x([a-f\d]+))(;?)/gi;

function replaceEntitiesKeepingLtAmp(text: string): string {
  if (text.indexOf('&') === -1) return text;
  return text.replace(ENTITY, (whole, named: string | undefined, dec: string | undefined, hex: string | undefined, semicolon: string) => {
    let code: number | undefined;
    if (named !== undefined) {
      const lower = named.toLowerCase();
      if (lower === 'lt' || lower === 'amp') return whole;
      const char = NAMED_ENTITIES.get(named) ?? NAMED_ENTITIES.get(lower);
      if (char !== undefined && named !== 'apos' && lower !== 'apos') return char;
    } else {
      code = dec !== undefined ? parseInt(dec, 10) : parseInt(hex!, 16);
      if (code >= 0x80 && code <= 0x9f) {
        const decoded = new TextDecoder('windows-1252').decode(new Uint8Array([code]));
        return decoded;
      }
      if (code <= 0x10ffff) return String.fromCodePoint(code);
    }
    return semicolon !== '' ? '' : whole;
  });
}
