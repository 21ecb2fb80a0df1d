/**
 * Python's `str(float)` (repr): shortest round-trip digits, fixed notation
 * for exponents -4..15, `.0` on integral values. lxml hands XPath numbers to
 * its `re:*` functions as Python floats and they stringify them this way, so
 * `re:test(1, '^1\.0$')` is true in parsel.
 */
export function pythonFloatRepr(x: number): string {
  if (x !== x) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa, expText] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exp10 = Number(expText);
  if (exp10 >= -4 && exp10 < 16) {
    if (exp10 < 0) return `${sign}0.${'0'.repeat(-exp10 - 1)}${digits}`;
    const intLength = exp10 + 1;
    if (digits.length <= intLength) return `${sign}${digits.padEnd(intLength, '0')}.0`;
    return `${sign}${digits.slice(0, intLength)}.${digits.slice(intLength)}`;
  }
  const expSign = exp10 < 0 ? '-' : '+';
  return `${sign}${mantissa}e${expSign}${String(Math.abs(exp10)).padStart(2, '0')}`;
}
