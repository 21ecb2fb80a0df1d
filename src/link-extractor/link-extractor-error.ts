import { SeineError } from '../errors/seine-error.js';

/** A LinkExtractor option that cannot work: a `restrictXpaths` / `restrictCss` query that selects something other than elements. */
export class LinkExtractorError extends SeineError {
  static readonly code = 'SEINE_LINK_EXTRACTOR';

  constructor(message: string) {
    super(LinkExtractorError.code, message);
  }
}
