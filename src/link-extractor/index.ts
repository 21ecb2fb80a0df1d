export { LinkExtractor, type LinkExtractorOptions } from './link-extractor.js';
export { Link } from './link.js';
export { IGNORED_EXTENSIONS } from './ignored-extensions.js';
export { LinkExtractorError } from './link-extractor-error.js';
