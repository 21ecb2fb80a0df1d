/**
 * Lines of a piped standard input, read one at a time and shared by every
 * console of the process: a scripted crawl may open several consoles
 * (inspectResponse on several pages), each going on where the last one
 * stopped, and no line read ahead is lost between them.
 */
import { createInterface } from 'node:readline';

export interface LineSource {
  /** The next line, or null at the end of input. */
  next(): Promise<string | null>;
}

const sources = new WeakMap<NodeJS.ReadableStream, LineSource>();

export function lineSource(input: NodeJS.ReadableStream): LineSource {
  let source = sources.get(input);
  if (source === undefined) {
    const iterator = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
    let ended = false;
    source = {
      async next() {
        if (ended) return null;
        const step = await iterator.next();
        if (step.done === true) {
          ended = true;
          return null;
        }
        return step.value;
      },
    };
    sources.set(input, source);
  }
  return source;
}
