/**
 * BrotliPlugin (seine's; Scrapy 2.8 has none): Node's zlib Brotli encoder,
 * streamed. Options: `brotli_quality` (0–11, default 11, Brotli's own
 * default; lower is much faster), `brotli_lgwin` (the window, 10–24,
 * default 22) and `brotli_mode` ('generic' 0, 'text' 1, 'font' 2; default
 * generic), as the `brotli` Python package names them.
 */
import { constants, createBrotliCompress } from 'node:zlib';
import { choiceOption, intOption, type FeedPluginOptions, type FeedPluginTarget } from './feed-plugin.js';
import { StreamPlugin } from './stream-plugin.js';

const MODES = [
  ['generic', 0, constants.BROTLI_MODE_GENERIC],
  ['text', 1, constants.BROTLI_MODE_TEXT],
  ['font', 2, constants.BROTLI_MODE_FONT],
] as const;

function params(options: FeedPluginOptions): Record<number, number> {
  return {
    [constants.BROTLI_PARAM_QUALITY]: intOption(options, 'brotli_quality', 0, 11, 11),
    [constants.BROTLI_PARAM_LGWIN]: intOption(options, 'brotli_lgwin', 10, 24, 22),
    [constants.BROTLI_PARAM_MODE]: choiceOption(options, 'brotli_mode', MODES, constants.BROTLI_MODE_GENERIC as number),
  };
}

export class BrotliPlugin extends StreamPlugin {
  static check(options: FeedPluginOptions): void {
    params(options);
  }

  constructor(file: FeedPluginTarget, feedOptions: FeedPluginOptions) {
    const brotli = params(feedOptions);
    super(file, () => createBrotliCompress({ params: brotli }));
  }
}
