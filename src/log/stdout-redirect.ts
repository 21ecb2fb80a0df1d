/**
 * LOG_STDOUT: what the process prints to standard output becomes INFO log
 * events (logger `stdout`), one per non-empty line, as Scrapy's StreamLogger
 * does.
 */
import type { Logger } from './log-bus.js';
import type { TextWriter } from './sink.js';

/** A writer whose text is logged instead of printed. */
export function loggingWriter(logger: Logger): TextWriter {
  return {
    write(text: string): boolean {
      for (const line of text.trimEnd().split(/\r?\n/)) logger.info(line.trimEnd());
      return true;
    },
  };
}

/** Sends `process.stdout.write` to `logger` until the returned function is called. */
export function redirectProcessStdout(logger: Logger): () => void {
  const stdout = process.stdout;
  const original = stdout.write;
  const writer = loggingWriter(logger);
  const replacement = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    writer.write(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const callback = rest.find((arg): arg is () => void => typeof arg === 'function');
    callback?.();
    return true;
  };
  stdout.write = replacement as typeof stdout.write;
  return () => {
    stdout.write = original;
  };
}
