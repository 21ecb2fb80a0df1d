/**
 * Number → string conversions, made to give lxml's exact strings.
 *
 * XPath 1.0 says numbers print without exponents, but lxml's engine
 * (libxml2 2.9, `xmlXPathFormatNumber`) does not: integers strictly inside
 * the C `int` range print plainly; other values print with 15 significant
 * digits, in exponent form (`1e+20`, `2.147483648e+09`, `1e-06`) outside
 * [1e-5, 1e9] and in fixed form inside it (`0.333333333333333`), trailing
 * zeros removed. seine mirrors that, because parsel users compare strings.
 * C's printf rounds the exact binary value half-to-even; JavaScript's
 * toFixed/toExponential round half up, which differs on values such as
 * 2^-22, so the digits are computed exactly with BigInt here.
 */

const INT_MAX = 2147483647;
const INT_MIN = -2147483648;

/** Exact decimal expansion of a finite positive double: digits and the count of them after the point. */
function exactDecimal(abs: number): { digits: string; fraction: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, abs);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent: number;
  if (biased === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  if (exponent >= 0) return { digits: (mantissa << BigInt(exponent)).toString(), fraction: 0 };
  const k = -exponent;
  return { digits: (mantissa * 5n ** BigInt(k)).toString(), fraction: k };
}

/**
 * Rounds the digit string to `keep` leading digits, half to even on the exact
 * remainder. Returns the kept digits (possibly one longer after a carry).
 */
function roundDigits(digits: string, keep: number): string {
  if (keep >= digits.length) return digits.padEnd(keep, '0');
  if (keep < 0) return '';
  const next = digits.charCodeAt(keep) - 48;
  let up = next > 5;
  if (next === 5) {
    let tail = false;
    for (let i = keep + 1; i < digits.length; i++) {
      if (digits.charCodeAt(i) !== 48) {
        tail = true;
        break;
      }
    }
    const last = keep > 0 ? digits.charCodeAt(keep - 1) - 48 : 0;
    up = tail || last % 2 === 1;
  }
  let kept = digits.slice(0, keep);
  if (!up) return kept === '' ? '0' : kept;
  if (kept === '') return '1';
  return (BigInt(kept) + 1n).toString().padStart(keep, '0');
}

/** C `printf("%.*f", places, abs)` for a positive double. */
function toFixedC(abs: number, places: number): string {
  const { digits, fraction } = exactDecimal(abs);
  const intLength = digits.length - fraction;
  const padded = intLength <= 0 ? '0'.repeat(1 - intLength) + digits : digits;
  const intDigits = padded.length - fraction;
  const rounded = roundDigits(padded, intDigits + places);
  const cut = rounded.length - places;
  const intPart = rounded.slice(0, cut).replace(/^0+(?=\d)/, '');
  return places > 0 ? `${intPart}.${rounded.slice(cut)}` : intPart;
}

/** C `printf("%.*e", places, abs)` for a positive double. */
function toExponentialC(abs: number, places: number): string {
  const { digits, fraction } = exactDecimal(abs);
  const firstNonZero = digits.search(/[1-9]/);
  const significant = digits.slice(firstNonZero);
  let exp10 = digits.length - fraction - firstNonZero - 1;
  let rounded = roundDigits(significant, places + 1);
  if (rounded.length > places + 1) {
    rounded = rounded.slice(0, places + 1);
    exp10++;
  }
  const mantissa = places > 0 ? `${rounded[0]}.${rounded.slice(1)}` : rounded;
  const sign = exp10 < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exp10)).padStart(2, '0')}`;
}

function stripFractionZeros(s: string): string {
  if (s.indexOf('.') < 0) return s;
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48) end--;
  if (s.charCodeAt(end - 1) === 46) end--;
  return s.slice(0, end);
}

/** XPath `string(number)` as lxml computes it. */
export function numberToString(x: number): string {
  if (x > INT_MIN && x < INT_MAX && Math.floor(x) === x) return x === 0 ? '0' : String(x);
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  const abs = Math.abs(x);
  const sign = x < 0 ? '-' : '';
  if (abs > 1e9 || abs < 1e-5) {
    const e = toExponentialC(abs, 14);
    const at = e.indexOf('e');
    return sign + stripFractionZeros(e.slice(0, at)) + e.slice(at);
  }
  // (int)log10(x) truncates towards zero, as C does.
  const integerPlace = Math.trunc(Math.log10(abs));
  const places = integerPlace > 0 ? 15 - integerPlace - 1 : 15 - integerPlace;
  return sign + stripFractionZeros(toFixedC(abs, places));
}
