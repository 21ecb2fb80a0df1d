export { WarcWriter, WARC_LOGGER, type WarcWriterOptions } from './warc-writer.js';
export { WarcDirError } from './warc-dir-error.js';
export { keepNetworkExchange, type NetworkExchange } from './network-exchange.js';
