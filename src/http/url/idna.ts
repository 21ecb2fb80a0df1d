/**
 * Python's `str.encode('idna')` (IDNA 2003, RFC 3490 with Nameprep), which
 * w3lib applies to host names. It differs from the WHATWG URL parser's UTS 46
 * (`url.domainToASCII`): `straße.de` becomes `strasse.de` (UTS 46:
 * `xn--strae-oqa.de`), and ASCII labels keep their case. Scrapy's request
 * URLs and fingerprints follow Python, so this does too.
 *
 * Nameprep is approximated with what JavaScript has: the B.1 map-to-nothing
 * set, lower-casing plus the B.2 mappings lower-casing misses (ß, ẞ → ss;
 * ς → σ), NFKC, and the prohibited ranges that matter for host names
 * (controls, private use, surrogates, non-ASCII spaces). The bidi rule is not
 * checked.
 */

const DOTS = /[.\u3002\uff0e\uff61]/;
const MAP_TO_NOTHING = /[\u00ad\u034f\u1806\u180b-\u180d\u200b-\u200d\u2060\ufe00-\ufe0f\ufeff]/g;
const PROHIBITED = /[\p{Cc}\p{Co}\p{Cs}\u00a0\u1680\u2000-\u200b\u202f\u205f\u3000\u0340\u0341\u200e\u200f\u202a-\u202e\u206a-\u206f\u2ff0-\u2ffb\ufff9-\ufffd\ufffe\uffff]/u;

function nameprep(label: string): string | null {
  const mapped = label.replace(MAP_TO_NOTHING, '').toLowerCase().replace(/ß|ẞ/g, 'ss').replace(/ς/g, 'σ').normalize('NFKC');
  return PROHIBITED.test(mapped) ? null : mapped;
}

function isAscii(text: string): boolean {
  return /^[\x00-\x7f]*$/.test(text);
}

function toAscii(label: string): string | null {
  if (isAscii(label)) return label.length > 0 && label.length < 64 ? label : null;
  const prepared = nameprep(label);
  if (prepared === null) return null;
  if (isAscii(prepared)) return prepared.length > 0 && prepared.length < 64 ? prepared : null;
  if (prepared.startsWith('xn--')) return null;
  const encoded = 'xn--' + punycodeEncode(prepared);
  return encoded.length < 64 ? encoded : null;
}

/** The host in ASCII, or null where Python raises UnicodeError (an empty or over-long label, a prohibited character). */
export function idnaEncode(host: string): string | null {
  if (host === '') return '';
  if (isAscii(host)) {
    const labels = host.split('.');
    for (let i = 0; i < labels.length - 1; i++) {
      const length = labels[i]!.length;
      if (length === 0 || length >= 64) return null;
    }
    return labels[labels.length - 1]!.length >= 64 ? null : host;
  }
  const labels = host.split(DOTS);
  let trailingDot = '';
  if (labels.length > 0 && labels[labels.length - 1] === '') {
    trailingDot = '.';
    labels.pop();
  }
  const out: string[] = [];
  for (const label of labels) {
    const ascii = toAscii(label);
    if (ascii === null) return null;
    out.push(ascii);
  }
  return out.join('.') + trailingDot;
}

// RFC 3492 parameters.
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;

function adapt(delta: number, points: number, first: boolean): number {
  delta = first ? Math.floor(delta / DAMP) : delta >> 1;
  delta += Math.floor(delta / points);
  let k = 0;
  while (delta > ((BASE - T_MIN) * T_MAX) >> 1) {
    delta = Math.floor(delta / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * delta) / (delta + SKEW));
}

function digit(d: number): string {
  return String.fromCharCode(d < 26 ? d + 97 : d + 22);
}

/** RFC 3492 Punycode of a label (code points, not UTF-16 units). */
export function punycodeEncode(label: string): string {
  const input = Array.from(label, (ch) => ch.codePointAt(0)!);
  let output = '';
  for (const cp of input) if (cp < 0x80) output += String.fromCharCode(cp);
  const basic = output.length;
  let handled = basic;
  if (basic > 0) output += '-';
  let n = INITIAL_N;
  let delta = 0;
  let bias = INITIAL_BIAS;
  while (handled < input.length) {
    let m = Infinity;
    for (const cp of input) if (cp >= n && cp < m) m = cp;
    delta += (m - n) * (handled + 1);
    n = m;
    for (const cp of input) {
      if (cp < n) delta++;
      if (cp === n) {
        let q = delta;
        for (let k = BASE; ; k += BASE) {
          const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
          if (q < t) break;
          output += digit(t + ((q - t) % (BASE - t)));
          q = Math.floor((q - t) / (BASE - t));
        }
        output += digit(q);
        bias = adapt(delta, handled + 1, handled === basic);
        delta = 0;
        handled++;
      }
    }
    delta++;
    n++;
  }
  return output;
}
