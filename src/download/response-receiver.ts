import type { ClientRequest, IncomingMessage } from 'node:http';
import type { FetchOptions, WarnSizeStage } from './fetch-contract.js';
import type { Request } from '../http/request.js';
import type { BodyFile, Response } from '../http/response.js';
import { ConnectionLostError, HeadersTooLargeError, InvalidResponseError, MaxSizeError, type DownloadError } from './download-errors.js';
import { mapDownloadError, type FailureContext } from './map-download-error.js';
import { BodyBuffer } from './body-buffer.js';
import { BodyFileWriter } from './body-file.js';
import { buildResponse, hasBody } from './build-response.js';

/** What one download shares with each of its attempts (a stale keep-alive socket makes more than one). */
export interface TransferState {
  compression: boolean;
  keepWire: boolean;
  lenient: boolean;
  maxHeaderSize: number;
  failOnDataLoss: boolean;
  /** Ends the download with `error` (timeout, abort, a size limit): the attempt in flight is destroyed. */
  fail: (error: DownloadError) => void;
  failure: () => DownloadError | null;
}

/** What the receiver drives on the transport: stop it, and hold the body while the disk catches up. */
export interface TransferSource {
  destroy(): void;
  pause(): void;
  resume(): void;
}

/** A failure on a reused keep-alive socket before any response byte: worth another try on a fresh socket. */
export class StaleSocket extends Error {
  constructor(readonly mapped: DownloadError) {
    super(mapped.message);
  }
}

/** A kept-alive socket the server has closed fails with these before any response; Twisted's pool retries such requests, so do we. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
const EMPTY_BODY = Buffer.alloc(0);

/**
 * One attempt's response, whatever carries it (node:http in fetch-node.ts,
 * got's stream in fetch-got.ts): DOWNLOAD_MAXSIZE / DOWNLOAD_WARNSIZE on
 * Content-Length and on the bytes as they arrive, the body into one buffer
 * (body-buffer.ts) or a file (meta.body_to_file, with back-pressure),
 * data loss, and each failure mapped to seine's DownloadError classes.
 * The transport calls onRequest, onResponse, onData, onEnd and onError.
 */
export class ResponseReceiver {
  readonly #request: Request;
  readonly #url: string;
  readonly #options: FetchOptions;
  readonly #state: TransferState;
  readonly #resolve: (response: Response) => void;
  readonly #reject: (error: unknown) => void;
  readonly #collected = new BodyBuffer();
  readonly #context: FailureContext;
  source: TransferSource | null = null;
  #clientRequest: ClientRequest | null = null;
  #response: IncomingMessage | null = null;
  #ip: string | null = null;
  // A media download's 200 body goes to a temporary file instead (fetchOptions.bodyDir); other statuses stay in memory.
  #file: BodyFileWriter | null = null;
  #toFile = false;
  #warned = false;
  #settled = false;

  constructor(request: Request, url: string, options: FetchOptions, state: TransferState, resolve: (response: Response) => void, reject: (error: unknown) => void) {
    this.#request = request;
    this.#url = url;
    this.#options = options;
    this.#state = state;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#context = { url: request.url, responseReceived: false, received: 0, expected: null };
  }

  onRequest(req: ClientRequest): void {
    this.#clientRequest = req;
  }

  onResponse(res: IncomingMessage): void {
    this.#response = res;
    this.#ip = (res as IncomingMessage & { ip?: string }).ip ?? res.socket?.remoteAddress ?? null;
    this.#context.responseReceived = true;
    const headers = res.headers;
    // Lenient parsing read the body as chunked; a peer that framed it by Content-Length would
    // start the next response elsewhere, so this connection is not reused (docs/security.md).
    if (this.#state.lenient && this.#clientRequest !== null && headers['transfer-encoding'] !== undefined && headers['content-length'] !== undefined) this.#clientRequest.shouldKeepAlive = false;
    const { bodyDir, maxSize, warnSize } = this.#options;
    // A compressed body is decoded in memory after the transfer (decompress.ts): it stays there.
    if (bodyDir != null) this.#toFile = res.statusCode === 200 && this.#request.method !== 'HEAD' && !(this.#state.compression && headers['content-encoding'] !== undefined);
    const announced = headers['content-length'];
    if (announced === undefined || !hasBody(this.#request.method, res.statusCode ?? 0)) return;
    const length = Number(announced);
    if (!Number.isSafeInteger(length)) return;
    this.#context.expected = length;
    if (maxSize > 0 && length > maxSize) {
      this.#state.fail(new MaxSizeError(this.#request.url, { size: length, maxSize, stage: 'expected' }));
      return;
    }
    if (warnSize > 0 && length > warnSize) this.#warn(length, 'expected');
    this.#collected.expect(length);
  }

  onData(chunk: Buffer): void {
    // Bytes still in the pipe after the transfer failed (over DOWNLOAD_MAXSIZE, aborted) are dropped.
    if (this.#settled || this.#state.failure() !== null) return;
    // Opened with the first byte: an empty body stays an empty buffer.
    if (this.#toFile && this.#file === null) this.#file = new BodyFileWriter(this.#options.bodyDir!);
    const file = this.#file;
    if (file === null) this.#collected.push(chunk);
    else if (!file.write(chunk)) {
      // The disk is slower than the network: the socket waits, so nothing piles up in memory.
      const source = this.source!;
      source.pause();
      file.onDrain(() => source.resume());
    }
    const context = this.#context;
    context.received += chunk.length;
    const { maxSize, warnSize } = this.#options;
    if (maxSize > 0 && context.received > maxSize) {
      this.#collected.clear();
      this.#state.fail(new MaxSizeError(this.#request.url, { size: context.received, maxSize, stage: 'received', method: this.#request.method }));
      return;
    }
    if (warnSize > 0 && context.received > warnSize) this.#warn(context.received, 'received');
  }

  onEnd(): void {
    if (this.#settled) return;
    if (this.#file !== null) {
      const done = this.#file;
      this.#file = null;
      done.finish().then((bodyFile) => {
        // The transfer failed meanwhile (an error after the last byte): the file goes with it.
        if (this.#settled) void done.discard();
        else this.#finish(EMPTY_BODY, [], bodyFile);
      }, (error: unknown) => this.onError(error));
      return;
    }
    let body: Buffer;
    try {
      body = this.#collected.take();
    } catch (error) {
      // Past buffer.constants.MAX_LENGTH (4 GiB), possible only with DOWNLOAD_MAXSIZE = 0.
      this.onError(error);
      return;
    }
    this.#finish(body, []);
  }

  onError(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.source?.destroy();
    const partial = this.#file;
    this.#file = null;
    const state = this.#state;
    const known = state.failure();
    // The partial file is removed before the failure is reported: nothing is left behind once the download has failed.
    const rejectWith = (reason: unknown): void => {
      if (partial === null) this.#reject(reason);
      else void partial.discard().then(() => this.#reject(reason));
    };
    if (known !== null) {
      rejectWith(known);
      return;
    }
    const context = this.#context;
    let mapped = mapDownloadError(error, context);
    if (mapped instanceof InvalidResponseError && mapped.parserCode === 'HPE_HEADER_OVERFLOW') mapped = new HeadersTooLargeError(this.#request.url, state.maxHeaderSize, { cause: mapped.cause });
    const code = (mapped.cause as { code?: unknown } | undefined)?.code;
    if (!context.responseReceived && this.#clientRequest?.reusedSocket === true && typeof code === 'string' && STALE_SOCKET_CODES.has(code)) {
      rejectWith(new StaleSocket(mapped));
    } else if (context.responseReceived && !state.failOnDataLoss && mapped instanceof ConnectionLostError) {
      this.#settled = false;
      if (partial === null) this.#finish(this.#collected.take(), ['dataloss']);
      else partial.finish().then((bodyFile) => this.#finish(EMPTY_BODY, ['dataloss'], bodyFile), this.#reject);
    } else {
      rejectWith(mapped);
    }
  }

  #warn(size: number, stage: WarnSizeStage): void {
    if (this.#warned) return;
    this.#warned = true;
    this.#options.onWarnSize?.(size, stage);
  }

  #finish(body: Buffer, flags: string[], bodyFile: BodyFile | null = null): void {
    if (this.#settled) return;
    this.#settled = true;
    const { warnSize } = this.#options;
    buildResponse(this.#request, this.#url, this.#response!, this.#ip, body, flags, this.#state, this.#options, bodyFile).then((built) => {
      // DOWNLOAD_WARNSIZE on the decoded body, when the wire bytes did not already warn (as Scrapy >= 2.11).
      if (!this.#warned && warnSize > 0 && built.body.length > warnSize && built.body.length !== body.length) this.#options.onWarnSize?.(built.body.length, 'decompressed');
      this.#resolve(built);
    }, this.#reject);
  }
}
