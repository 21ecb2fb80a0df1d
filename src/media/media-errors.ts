import { SeineError } from '../errors/seine-error.js';

/**
 * Scrapy's FileException: one media URL could not be stored (a non-200
 * status, an empty body, a download or store failure). The pipeline has
 * already logged why; the URL is left out of the item's results and the
 * item goes on. Subclasses raise it from fileDownloaded/filePath to skip a
 * file with their own reason.
 */
export class FileException extends SeineError {
  static readonly code: string = 'SEINE_FILE_EXCEPTION';
  constructor(message = '', options?: { cause?: unknown }) {
    super(FileException.code, message, options);
  }
}

/** Scrapy's ImageException: an image refused by ImagesPipeline (`Image too small (10x10 < 50x50)`). */
export class ImageException extends FileException {
  static override readonly code: string = 'SEINE_IMAGE_EXCEPTION';
  constructor(message = '', options?: { cause?: unknown }) {
    super(message, options);
    (this as { code: string }).code = ImageException.code;
  }
}
