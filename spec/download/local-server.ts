/**
 * Real servers on 127.0.0.1 (port 0) for the downloader's tests. Each test
 * starts its own and closes it, with every connection, afterwards.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { FetchOptions } from '../../src/download/fetch-contract.js';

export interface LocalServer {
  url: string;
  port: number;
  /** Every socket the server accepted, in order. */
  sockets: net.Socket[];
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export function startHttpServer(handler: Handler): Promise<LocalServer> {
  return listen(http.createServer(handler), 'http');
}

export function startHttpsServer(handler: Handler): Promise<LocalServer> {
  const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
  return listen(https.createServer({ key: fixture('localhost-key.pem'), cert: fixture('localhost-cert.pem') }, handler), 'https');
}

/** A TCP server that runs `onSocket` for each connection: for answers no HTTP server would give. */
export function startTcpServer(onSocket: (socket: net.Socket) => void): Promise<LocalServer> {
  return listen(net.createServer(onSocket), 'http');
}

function listen(server: net.Server, scheme: string): Promise<LocalServer> {
  const sockets: net.Socket[] = [];
  server.on(scheme === 'https' ? 'secureConnection' : 'connection', (socket: net.Socket) => sockets.push(socket));
  if (scheme === 'https') server.on('connection', () => undefined);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `${scheme}://127.0.0.1:${port}`,
        port,
        sockets,
        close: () => new Promise<void>((done) => {
          for (const socket of sockets) socket.destroy();
          (server as http.Server).closeAllConnections?.();
          server.close(() => done());
        }),
      });
    });
  });
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function fetchOptions(overrides: Partial<FetchOptions> = {}): FetchOptions {
  return { signal: new AbortController().signal, timeoutMs: 5000, maxSize: 0, warnSize: 0, proxy: null, ...overrides };
}

/** Resolves when `socket` has closed. */
export function closed(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) resolve();
    else socket.once('close', () => resolve());
  });
}
