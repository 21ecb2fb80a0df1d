import { NAMED_ENTITIES } from '../dom/html-rules.generated.js';
import { translatePythonRegex } from '../python/regex.js';
import { BadArgumentError } from './bad-argument-error.js';

/**
 * parsel's `re()`: a named group `extract` gives that group of the first
 * match; otherwise every match, or the values of its groups flattened. Then
 * character references are replaced except `&lt;` and `&amp;` (w3lib's
 * replace_entities with keep=['lt', 'amp']), as parsel does by default.
 */

const cache = new Map<string, RegExp>();

/**
 * A pattern string is read as Python's `re` reads a str pattern, as parsel
 * compiles it: `\w`, `\d`, `\s`, `\b` are Unicode (`re('K\w+l')` finds `Kühl`
 * in `Kühling`, where JavaScript's ASCII `\w` finds `K` and `hling`), and
 * `(?P<name>…)`, `(?P=name)`, leading inline flags `(?imsx)`, `$` before a
 * final newline are Python's (src/python/regex.ts, shared with the
 * EXSLT `re:` functions). A RegExp keeps JavaScript's meaning: it is the
 * user's JavaScript value, and matches in re() as it does in `regex.test()`
 * (docs/selectors.md). A pattern neither reads (`(`) is a BadArgumentError
 * naming it, as parsel raises re.error.
 */
export function toGlobalRegExp(regex: RegExp | string): RegExp {
  if (typeof regex !== 'string') {
    return regex.global ? new RegExp(regex.source, regex.flags) : new RegExp(regex.source, regex.flags + 'g');
  }
  let compiled = cache.get(regex);
  if (compiled === undefined) {
    try {
      const translated = translatePythonRegex(regex);
      compiled = new RegExp(translated.source, translated.flags + 'g');
    } catch (error) {
      // RegExp's message quotes the translated source, which the user never wrote: keep only the reason.
      const reason = (error as Error).message.replace(/^(Invalid regular expression): \/.*\/[a-z]*: /s, '$1: ');
      throw new BadArgumentError('re()', 'the pattern', 'a regular expression', regex, `${JSON.stringify(regex)}: ${reason}`);
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
    // exec() on the one compiled RegExp: matchAll() clones it at every call, which made re('(\\w+)\\s(\\w+)') on
    // a 50-character text take 7 µs instead of 2.6 µs.
    const unicode = re.flags.includes('v') || re.flags.includes('u');
    re.lastIndex = 0;
    for (let match = re.exec(text); match !== null; match = re.exec(text)) {
      if (match.length === 1) strings.push(match[0]);
      else for (let i = 1; i < match.length; i++) strings.push(match[i] ?? '');
      if (match[0] === '') re.lastIndex = unicode ? afterCodePoint(text, re.lastIndex) : re.lastIndex + 1;
    }
  }
  return replaceEntities ? strings.map(replaceEntitiesKeepingLtAmp) : strings;
}

/** The index after the code point at `at` (a surrogate pair is one), as matchAll() moves on after an empty match. */
function afterCodePoint(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return at + (code >= 0xd800 && code <= 0xdbff && at + 1 < text.length ? 2 : 1);
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
