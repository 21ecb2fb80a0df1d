/**
 * What kind of response a download is, decided as Scrapy's `responsetypes`
 * does (`from_args`): the Content-Type when it names a type Scrapy knows,
 * else the file name in Content-Disposition, else the URL's extension, else
 * a look at the first 5,000 bytes. The kind decides whether `css()` and
 * `xpath()` work (not on 'binary') and whether the document parses as XML.
 */

export type ResponseKind = 'html' | 'xml' | 'text' | 'binary';

// Scrapy's ResponseTypes.CLASSES; `text/*` is the one wildcard.
const MIME_KINDS: Record<string, ResponseKind> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/vnd.wap.xhtml+xml': 'html',
  'application/atom+xml': 'xml',
  'application/rdf+xml': 'xml',
  'application/rss+xml': 'xml',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/json': 'text',
  'application/x-json': 'text',
  'application/json-amazonui-streaming': 'text',
  'application/javascript': 'text',
  'application/x-javascript': 'text',
};

// The extensions Scrapy's mime.types (plus Python's defaults) map to a text class, listed by
// running scrapy.responsetypes.from_filename over every known extension.
const EXTENSION_KINDS = new Map<string, ResponseKind>();
for (const ext of 'htm html shtml xht xhtml'.split(' ')) EXTENSION_KINDS.set(ext, 'html');
for (const ext of 'atom rdf rss wsdl xml xpdl xsd xsl'.split(' ')) EXTENSION_KINDS.set(ext, 'xml');
for (const ext of ('323 asc bib boo brf c c++ cc cls cpp csh css csv d diff etx gcd h h++ hh hpp hs htc hxx ics icz jad java js ' +
  'json ksh lhs ltx mjs mml moc n3 p pas patch pl pm pot py rtx scala sct sgm sgml sh srt sty tcl tex text tk tm ts tsv txt ' +
  'uls vcf vcs vtt wml wmls wsc').split(' ')) {
  EXTENSION_KINDS.set(ext, 'text');
}
// Python's mimetypes reads these as compression of another type: not text.
const COMPRESSION_EXTENSIONS = new Set(['gz', 'z', 'bz2', 'xz', 'br', 'svgz', 'tgz', 'taz', 'tz', 'tbz2', 'txz']);

/** Scrapy's `from_mimetype`: a known type's kind, or null (Scrapy's plain Response: look further). */
export function kindFromMimeType(mimeType: string): ResponseKind | null {
  const kind = MIME_KINDS[mimeType];
  if (kind !== undefined) return kind;
  return mimeType.startsWith('text/') ? 'text' : null;
}

/**
 * Scrapy's `from_filename`: Python's `mimetypes.guess_type` on the whole
 * string, so a query string hides the extension (`page.html?x=1` tells
 * nothing) exactly as it does in Scrapy.
 */
export function kindFromFilename(name: string): ResponseKind | null {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || /^\.+$/.test(base.slice(0, dot + 1))) return null;
  const ext = base.slice(dot + 1);
  if (COMPRESSION_EXTENSIONS.has(ext.toLowerCase())) return null;
  return EXTENSION_KINDS.get(ext) ?? EXTENSION_KINDS.get(ext.toLowerCase()) ?? null;
}

/** Scrapy's `binary_is_text`: no control bytes but NUL, tab, LF and CR. */
function looksLikeText(chunk: Uint8Array): boolean {
  for (let i = 0; i < chunk.length; i++) {
    const b = chunk[i]!;
    if (b < 32 && b !== 0 && b !== 9 && b !== 10 && b !== 13) return false;
  }
  return true;
}

/**
 * Scrapy's `from_body`, in its order (binary check, `<html`, `<?xml`,
 * `<!doctype html`), with one difference: Scrapy matches only the exact
 * `<html>` and `<!doctype html>`, so `<html lang="en">` under an HTML 4
 * doctype made a plain text response; seine accepts attributes and public
 * identifiers after them.
 */
export function kindFromBody(body: Uint8Array): ResponseKind {
  const chunk = body.subarray(0, 5000);
  if (!looksLikeText(chunk)) return 'binary';
  const lower = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1').toLowerCase();
  if (/<html[\s>]/.test(lower)) return 'html';
  if (lower.includes('<?xml')) return 'xml';
  if (/<!doctype html[\s>]/.test(lower)) return 'html';
  return 'text';
}

function dispositionFilename(disposition: string): string | null {
  // Scrapy: the text after the first `=` of the second `;` part, quotes stripped.
  const part = disposition.split(';')[1];
  if (part === undefined) return null;
  const value = part.split('=')[1];
  return value === undefined ? null : value.trim().replace(/^["']+|["']+$/g, '');
}

export interface KindHeaders {
  contentType: string | null;
  contentDisposition?: string | null;
}

/** The response's kind from its headers, URL and body, in Scrapy's order. */
export function responseKind(headers: string | null | KindHeaders, body: Uint8Array, url = ''): ResponseKind {
  const { contentType, contentDisposition = null } = typeof headers === 'object' && headers !== null ? headers : { contentType: headers };
  if (contentType !== null) {
    const mime = (contentType.split(';')[0] ?? '').trim().toLowerCase();
    const kind = kindFromMimeType(mime);
    if (kind !== null) return kind;
  }
  if (contentDisposition !== null) {
    const filename = dispositionFilename(contentDisposition);
    const kind = filename === null ? null : kindFromFilename(filename);
    if (kind !== null) return kind;
  }
  if (url !== '') {
    const kind = kindFromFilename(url);
    if (kind !== null) return kind;
  }
  return kindFromBody(body);
}
