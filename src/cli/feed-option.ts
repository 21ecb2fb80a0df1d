import { extname } from 'node:path';
import { SeineError } from '../errors/seine-error.js';

export class FeedOptionError extends SeineError {
  static readonly code = 'SEINE_FEED_OPTION';
  constructor(message: string) {
    super(FeedOptionError.code, message);
  }
}

const BY_EXTENSION: Record<string, string> = { '.json': 'json', '.jsonl': 'jsonlines', '.jl': 'jsonlines', '.csv': 'csv', '.xml': 'xml' };
/** Formats this version can write; the rest arrive with the feed exports. */
const AVAILABLE = new Set(['jsonlines']);

/** `-o file[:format]`: the format from an explicit suffix, else the extension. */
export function parseFeedOption(value: string): { path: string; format: string } {
  const match = /^(.*):(json|jsonlines|jl|csv|xml)$/.exec(value);
  let path = value;
  let format: string | undefined;
  if (match !== null && match[1] !== '') {
    path = match[1]!;
    format = match[2] === 'jl' ? 'jsonlines' : match[2];
  } else if (value === '-') {
    format = 'jsonlines';
  } else {
    format = BY_EXTENSION[extname(value).toLowerCase()];
  }
  if (format === undefined) {
    throw new FeedOptionError(`Cannot tell the feed format of '${value}': use an extension (.jsonl, .jl) or add :format, e.g. -o items.out:jsonlines`);
  }
  if (!AVAILABLE.has(format)) {
    throw new FeedOptionError(`Feed format '${format}' is not available yet: write JSON Lines instead (-o ${path.replace(/\.\w+$/, '')}.jsonl)`);
  }
  return { path, format };
}
