/**
 * Python's `str.strip()`: parsel strips the text before parsing, and Python's
 * whitespace set differs from JavaScript's `trim()` (it includes \x1c–\x1f and
 * \x85, and not U+FEFF).
 *
 * A loop from each end rather than a `^[…]+|[…]+$` regex: the regex tried
 * its second branch at every position of the page, ~3 % of parsing a
 * listing page (docs/performance.md, issue 26).
 */
export function isPythonSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

export function pythonStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPythonSpace(text.charCodeAt(start))) start++;
  while (end > start && isPythonSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
