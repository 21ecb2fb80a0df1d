import { createHash } from 'node:crypto';
import { guessedExtension, isKnownSuffix, pathSuffix } from '../python/mimetypes.js';

/** `hashlib.sha1(to_bytes(url)).hexdigest()`: the name Scrapy gives a media URL's file. */
export function mediaGuid(url: string): string {
  return createHash('sha1').update(url, 'utf8').digest('hex');
}

/**
 * Scrapy's FilesPipeline.file_path(): `full/<sha1 of the URL><ext>`, where
 * ext is the URL's own suffix when Python's mimetypes knows it, else the
 * extension of the type mimetypes guesses from the URL, else none — so a
 * Scrapy project's store carries over file for file.
 */
export function scrapyFilePath(url: string): string {
  const suffix = pathSuffix(url);
  const ext = isKnownSuffix(suffix) ? suffix : guessedExtension(url);
  return `full/${mediaGuid(url)}${ext}`;
}
