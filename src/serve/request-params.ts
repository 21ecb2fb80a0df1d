/**
 * A request's parameters as scrapyd (Twisted) reads them: the query string,
 * plus for POST a urlencoded or multipart body (multipart through the
 * platform's own parser: `new Response(body, { headers }).formData()`).
 * Every name keeps all its values, in order; files arrive as Buffers.
 */
import type { IncomingMessage } from 'node:http';

export type ParamValue = string | Buffer;
export type Params = Map<string, ParamValue[]>;

/** A body larger than this is refused (a deployed version's tarball, sources only, is far smaller). */
export const MAX_BODY_BYTES = 200 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(`the request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function add(params: Params, name: string, value: ParamValue): void {
  const values = params.get(name) ?? [];
  values.push(value);
  params.set(name, values);
}

export async function readParams(request: IncomingMessage, url: URL): Promise<Params> {
  const params: Params = new Map();
  for (const [name, value] of url.searchParams) add(params, name, value);
  if (request.method !== 'POST') return params;
  const body = await readBody(request);
  const type = request.headers['content-type'] ?? '';
  if (/^multipart\/form-data/i.test(type)) {
    const form = await new Response(body, { headers: { 'content-type': type } }).formData();
    for (const [name, value] of form) {
      add(params, name, typeof value === 'string' ? value : Buffer.from(await value.arrayBuffer()));
    }
  } else {
    for (const [name, value] of new URLSearchParams(body.toString('utf8'))) add(params, name, value);
  }
  return params;
}

export function textOf(value: ParamValue | undefined): string | undefined {
  return value === undefined ? undefined : typeof value === 'string' ? value : value.toString('utf8');
}
