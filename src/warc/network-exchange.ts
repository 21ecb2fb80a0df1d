/**
 * The network side of responses whose body the archive wants as it came.
 *
 * A page rendered
 * in the browser gives its callback the rendered DOM, while an archive wants
 * the bytes the server sent too. The browser's handler keeps them here, by
 * response, only when WARC_ENABLED asks for them (reading the network body
 * costs the browser a round trip); the WARC writer takes them out.
 */
import type { Response } from '../http/response.js';

export interface NetworkExchange {
  readonly url: string;
  readonly method: string;
  /** Request headers as the browser sent them. */
  readonly requestHeaders: ReadonlyArray<readonly [string, string]>;
  readonly status: number;
  readonly statusText: string;
  /** Response headers as received, in order. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The body as the browser received it, decoded (the browser drops Content-Encoding); null when it has none to give (a redirect). */
  readonly body: Buffer | null;
  readonly ip: string | null;
  /** True when the response's body is the rendered DOM (an HTML or XML page), not the network body. */
  readonly rendered: boolean;
}

const exchanges = new WeakMap<Response, NetworkExchange>();

export function keepNetworkExchange(response: Response, exchange: NetworkExchange): void {
  exchanges.set(response, exchange);
}

/** The exchange kept for `response`, once: it is forgotten as it is taken. */
export function takeNetworkExchange(response: Response): NetworkExchange | undefined {
  const exchange = exchanges.get(response);
  exchanges.delete(response);
  return exchange;
}

/**
 * A response of seine's HTTP client as the server sent it, before the body
 * was decoded (Content-Encoding) and with the status line's own words:
 * src/download/build-response.ts keeps it when WARC_ENABLED asks (fetch-options.ts, `keepWire`).
 */
export interface WireResponse {
  readonly statusText: string;
  /** Headers as received, in order, Content-Encoding included. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The body as received (de-chunked: Node's parser removes the chunk framing). */
  readonly body: Buffer;
}

const wireResponses = new WeakMap<Response, WireResponse>();

export function keepWireResponse(response: Response, wire: WireResponse): void {
  wireResponses.set(response, wire);
}

/** The wire form kept for `response`, once: it is forgotten as it is taken. */
export function takeWireResponse(response: Response): WireResponse | undefined {
  const wire = wireResponses.get(response);
  wireResponses.delete(response);
  return wire;
}
