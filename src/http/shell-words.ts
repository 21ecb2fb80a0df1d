/**
 * Splits a command line into words as a POSIX shell does, for the curl
 * commands browsers' developer tools copy: 'single' and "double" quotes,
 * backslash escapes, backslash-newline continuations, and Bash's $'…'
 * (Chrome writes bodies with quotes or non-ASCII that way). Python's
 * shlex.split, which Scrapy uses, reads $'…' as a literal `$`: seine decodes
 * it, so such a body arrives as the browser sent it.
 */

const ANSI_C: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

export class ShellWordsError extends Error {}

/** $'…' as bytes: \xHH and octal escapes are bytes (a body need not be UTF-8), the rest is UTF-8. */
function ansiC(text: string, start: number): { value: Buffer; end: number } {
  const bytes: Buffer[] = [];
  let value = '';
  const flush = (): void => {
    if (value !== '') bytes.push(Buffer.from(value, 'utf8'));
    value = '';
  };
  let i = start;
  while (i < text.length && text[i] !== "'") {
    if (text[i] !== '\\') {
      value += text[i++];
      continue;
    }
    const next = text[i + 1] ?? '';
    const simple = ANSI_C[next];
    if (simple !== undefined) {
      value += simple;
      i += 2;
    } else if (next === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 2))?.[0] ?? '';
      flush();
      bytes.push(Buffer.from([parseInt(hex || '0', 16)]));
      i += 2 + hex.length;
    } else if (next === 'u' || next === 'U') {
      const hex = new RegExp(`^[0-9a-fA-F]{1,${next === 'u' ? 4 : 8}}`).exec(text.slice(i + 2))?.[0] ?? '';
      value += String.fromCodePoint(parseInt(hex || '0', 16));
      i += 2 + hex.length;
    } else if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(text.slice(i + 1))![0];
      flush();
      bytes.push(Buffer.from([parseInt(octal, 8) & 0xff]));
      i += 1 + octal.length;
    } else {
      value += `\\${next}`;
      i += 2;
    }
  }
  if (i >= text.length) throw new ShellWordsError("no closing quotation for $'");
  flush();
  return { value: Buffer.concat(bytes), end: i + 1 };
}

/** The words as bytes: what a program started by the shell receives (a $'\xff' body is one byte, not UTF-8). */
export function shellWordBytes(text: string): Buffer[] {
  const words: Buffer[] = [];
  let word: Buffer[] | null = null;
  let i = 0;
  const add = (chunk: string | Buffer): void => {
    (word ??= []).push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  };
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      if (word !== null) words.push(Buffer.concat(word));
      word = null;
      i++;
    } else if (char === '\\') {
      if (text[i + 1] === '\n') i += 2; // a continuation line
      else if (text[i + 1] === '\r' && text[i + 2] === '\n') i += 3;
      else {
        add(text[i + 1] ?? '');
        i += 2;
      }
    } else if (char === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new ShellWordsError('no closing quotation');
      add(text.slice(i + 1, end));
      i = end + 1;
    } else if (char === '$' && text[i + 1] === "'") {
      const { value, end } = ansiC(text, i + 2);
      add(value);
      i = end;
    } else if (char === '"') {
      let j = i + 1;
      let chunk = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < text.length && '$`"\\\n'.includes(text[j + 1]!)) {
          if (text[j + 1] !== '\n') chunk += text[j + 1];
          j += 2;
        } else chunk += text[j++];
      }
      if (j >= text.length) throw new ShellWordsError('no closing quotation');
      add(chunk);
      i = j + 1;
    } else {
      add(char);
      i++;
    }
  }
  if (word !== null) words.push(Buffer.concat(word));
  return words;
}

/** The words as text (UTF-8). */
export function shellWords(text: string): string[] {
  return shellWordBytes(text).map((word) => word.toString('utf8'));
}

/** One word quoted for a POSIX shell: as it is when safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'"'"'`)}'`;
}
