/** What the spider middleware tests feed to processSpiderOutput and read back from it. */
import type { SpiderOutput } from '../../src/contracts/components.js';
import { Request } from '../../src/http/request.js';
import { Response, type ResponseOptions } from '../../src/http/response.js';

export async function* outputs(...items: SpiderOutput[]): AsyncIterable<SpiderOutput> {
  yield* items;
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** A response to `url` for a request with `meta`. */
export function responseFor(url: string, options: Partial<ResponseOptions> & { meta?: Record<string, unknown> } = {}): Response {
  const { meta, ...rest } = options;
  return new Response({ url, request: new Request(url, { meta }), ...rest });
}
