/**
 * The two answers of Python's `mimetypes` (and `pathlib`) that Scrapy's
 * FilesPipeline.file_path() builds a file's extension from, so that a URL
 * gets the same `full/<sha1><ext>` in seine as in Scrapy. The tables are
 * Python 3.11's with Debian's /etc/mime.types (mimetypes.generated.ts).
 */
import { ENCODINGS_MAP, SUFFIX_MAP, SUFFIX_TYPE, TYPE_EXTENSION } from './mimetypes.generated.js';

/** `pathlib.PurePosixPath(path).suffix`: the last part's extension, '' when it has none (or only a leading dot). */
export function pathSuffix(path: string): string {
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  const name = parts[parts.length - 1] ?? '';
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot) : '';
}

/** True when `suffix` is a key of `mimetypes.types_map` (strict, case-sensitive). */
export function isKnownSuffix(suffix: string): boolean {
  return Object.hasOwn(SUFFIX_TYPE, suffix);
}

/** `posixpath.splitext`: the extension starts at the last dot of the last part, not counting leading dots. */
function splitext(path: string): [string, string] {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot <= slash) return [path, ''];
  let first = slash + 1;
  while (first < dot && path[first] === '.') first++;
  return first === dot ? [path, ''] : [path.slice(0, dot), path.slice(dot)];
}

/**
 * `mimetypes.guess_extension(mimetypes.guess_type(url)[0])`, or '' when no
 * type is guessed: the suffix after the compression suffix is looked up
 * (`.tar.gz` → `.tar`'s type), as Python does, query strings included.
 */
export function guessedExtension(url: string): string {
  const typed = /^([^/:]+):(.*)$/s.exec(url);
  const scheme = typed?.[1]!.toLowerCase();
  let rest = typed ? typed[2]! : url;
  if (scheme === 'data') return dataUrlExtension(rest);
  let [base, ext] = splitext(rest);
  for (let lower = ext.toLowerCase(); Object.hasOwn(SUFFIX_MAP, lower); lower = ext.toLowerCase()) {
    [base, ext] = splitext(base + SUFFIX_MAP[lower]!);
  }
  if (Object.hasOwn(ENCODINGS_MAP, ext)) [base, ext] = splitext(base);
  rest = ext.toLowerCase();
  return Object.hasOwn(SUFFIX_TYPE, rest) ? extensionOfType(SUFFIX_TYPE[rest]!) : '';
}

/** A data: URL's media type (`text/plain` when it names none), then its first extension. */
function dataUrlExtension(rest: string): string {
  const comma = rest.indexOf(',');
  if (comma < 0) return '';
  const semi = rest.slice(0, comma).indexOf(';');
  let type = semi >= 0 ? rest.slice(0, semi) : rest.slice(0, comma);
  if (type.includes('=') || !type.includes('/')) type = 'text/plain';
  return extensionOfType(type);
}

/**
 * `mimetypes.guess_extension(type)` of a guessed type. Python finds none for
 * a type no suffix has (a data: URL's) or one with capitals (it looks the
 * type up lowercased: Debian's `application/A2L`), and Scrapy's f-string
 * writes that None as 'None' (`full/<sha1>None`): kept, so the paths stay
 * Scrapy's.
 */
function extensionOfType(type: string): string {
  return (Object.hasOwn(TYPE_EXTENSION, type) ? TYPE_EXTENSION[type] : null) ?? 'None';
}
