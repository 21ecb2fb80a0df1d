/**
 * Hides the passwords of URLs in text that seine writes out (log lines,
 * `<GET url>`, error messages): `http://user:secret@host/` reads
 * `http://user:***@host/`. The request itself keeps them, so the download
 * still authenticates. Scrapy writes them in clear.
 *
 * A file at src/'s root, importing nothing, so that every folder can use it.
 */

// scheme://user:password@ — the password runs to the authority's last '@' (before any / ? # or space).
const CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):[^\s/?#]*@/gi;

export const MASKED_PASSWORD = '***';

export function maskUrlCredentials(text: string): string {
  // Called for every log line: text without '@' (nearly all) costs one indexOf.
  return text.indexOf('@') === -1 ? text : text.replace(CREDENTIALS, `$1:${MASKED_PASSWORD}@`);
}
