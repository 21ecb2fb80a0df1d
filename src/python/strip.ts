/**
 * Python's `str.strip()`: parsel strips the text before parsing, and Python's
 * whitespace set differs from JavaScript's `trim()` (it includes \x1c–\x1f and
 * \x85, and not U+FEFF).
 */
const PY_SPACE = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const EDGES = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');

export function pythonStrip(text: string): string {
  return text.replace(EDGES, '');
}
