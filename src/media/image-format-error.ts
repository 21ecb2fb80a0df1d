import { SeineError } from '../errors/seine-error.js';

/** The bytes are not an image seine reads (HTML under a .jpg URL, a truncated or empty download, an SVG). */
export class ImageFormatError extends SeineError {
  static readonly code = 'SEINE_IMAGE_FORMAT';
  constructor(what: string, reason: string, options?: { cause?: unknown }) {
    super(
      ImageFormatError.code,
      `Cannot identify image ${what}: ${reason} — the URL must serve a JPEG, PNG, WebP, GIF, AVIF or TIFF image`,
      options,
    );
  }
}
