import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { DownloadError } from './download-errors.js';

/**
 * Scrapy's file:// and data: download handlers, so that a crawl, `seine
 * fetch` or the shell can open them like any URL. Like Scrapy's, they give
 * status 200 and no network headers; a data: URL's media type becomes
 * Content-Type so that the response is typed and decoded by it.
 */
export async function fetchFile(request: Request): Promise<Response> {
  let path: string;
  try {
    path = fileURLToPath(request.url.replace(/[?#].*$/s, ''));
  } catch (error) {
    throw new DownloadError(request.url, `Cannot read ${request.url}: ${(error as Error).message}. Write file:///absolute/path.`, { cause: error });
  }
  try {
    const body = await readFile(path);
    return new Response({ url: request.url, status: 200, body, request });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new DownloadError(request.url, `Cannot read ${path} for ${request.url}: ${reason}. Check the path.`, { cause: error });
  }
}

/** RFC 2397: `data:[<media type>][;base64],<data>`; without a media type, text/plain;charset=US-ASCII. */
export function fetchData(request: Request): Response {
  const match = /^data:([^,]*),(.*)$/is.exec(request.url);
  if (match === null) throw new DownloadError(request.url, `Malformed data: URL ${request.url}: it has no ',' before the data.`);
  let meta = match[1]!.trim();
  const isBase64 = /;\s*base64$/i.test(meta);
  if (isBase64) meta = meta.replace(/;\s*base64$/i, '');
  const mediaType = meta === '' ? 'text/plain;charset=US-ASCII' : meta.startsWith(';') ? `text/plain${meta}` : meta;
  const bytes = percentDecode(match[2]!);
  const body = isBase64 ? Buffer.from(bytes.toString('latin1').replace(/\s+/g, ''), 'base64') : bytes;
  return new Response({ url: request.url, status: 200, headers: { 'Content-Type': decodeURIComponent(mediaType) }, body, request });
}

/** %XX → the byte, everything else as its UTF-8 bytes (decodeURIComponent would reject non-UTF-8 sequences). */
function percentDecode(text: string): Buffer {
  const out: number[] = [];
  const utf8 = Buffer.from(text, 'utf8');
  for (let i = 0; i < utf8.length; i++) {
    const byte = utf8[i]!;
    if (byte === 0x25 && i + 2 < utf8.length && /^[0-9a-f]{2}$/i.test(utf8.subarray(i + 1, i + 3).toString('latin1'))) {
      out.push(parseInt(utf8.subarray(i + 1, i + 3).toString('latin1'), 16));
      i += 2;
    } else {
      out.push(byte);
    }
  }
  return Buffer.from(out);
}
