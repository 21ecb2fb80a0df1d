import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Response } from '../http/response.js';

/**
 * A media response's body, wherever the download put it: in memory
 * (`response.body`), or in the temporary file the HTTP handler streamed it
 * to (`response.bodyFile`, with its size and MD5 computed on the way), so
 * that the pipelines never read a big file whole.
 */
export function bodySize(response: Response): number {
  return response.bodyFile?.size ?? response.body.length;
}

/** The MD5 (hex) of the body's bytes: Scrapy's checksum of a stored file. */
export function bodyMd5(response: Response): string {
  return response.bodyFile?.md5 ?? createHash('md5').update(response.body).digest('hex');
}

/** What a store's put() reads: a stream of the temporary file, or the bytes in memory. */
export function bodySource(response: Response): Readable | Buffer {
  return response.bodyFile === null ? response.body : createReadStream(response.bodyFile.path);
}

/** The body as a file path (image decoding reads it there) or as bytes. */
export function bodyInput(response: Response): string | Buffer {
  return response.bodyFile?.path ?? response.body;
}

/** Removes the temporary file once the body is stored (or failed): nothing of a crawl's downloads stays in the temp folder. */
export async function releaseBody(response: Response): Promise<void> {
  if (response.bodyFile !== null) await unlink(response.bodyFile.path).catch(() => undefined);
}
