/**
 * `seine serve` assembled: the folder's config, the version store, the job
 * book and the HTTP server, listening; and how it stops (the server closes,
 * no job is launched any more, running crawls are left to finish — a restart
 * adopts them).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { lockServiceFolder } from './folder-lock.js';
import { JobBook } from './job-book.js';
import { serviceDashboard } from '../dashboard/service-pages.js';
import { ProjectVersions } from './project-versions.js';
import { ServeConfigError } from './serve-errors.js';
import { readServeConfig, type ServeConfig, type ServeOverrides } from './serve-config.js';
import { createServeServer, type ServePages } from './serve-server.js';
import type { ProjectVersionStore } from './service-contracts.js';

export interface RunningService {
  config: ServeConfig;
  book: JobBook;
  server: Server;
  /** The address and port it listens on (the port chosen when 0 was asked). */
  address: AddressInfo;
  stop(): Promise<void>;
}

export interface StartServiceOptions extends ServeOverrides {
  dir: string;
  store?: ProjectVersionStore;
  /** The pages at `/` and `/jobs/<id>/` (default: the dashboard's, fed by the job book). */
  pages?: (book: JobBook) => ServePages;
}

export async function startService(options: StartServiceOptions): Promise<RunningService> {
  const dir = resolve(options.dir);
  mkdirSync(dir, { recursive: true });
  const config = readServeConfig(dir, options);
  const unlock = lockServiceFolder(dir);
  const store = options.store ?? new ProjectVersions({ dir });
  let book: JobBook;
  try {
    book = new JobBook(config, store);
  } catch (error) {
    unlock();
    throw error;
  }
  const server = createServeServer({ dir, store, book, username: config.username, password: config.password, pages: options.pages === undefined ? serviceDashboard(book) : options.pages(book) });
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(config.http_port, config.bind_address, () => {
        server.off('error', fail);
        done();
      });
    });
  } catch (error) {
    book.close();
    unlock();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new ServeConfigError(`${config.bind_address}:${config.http_port} is in use: choose another port with --port or [serve] http_port`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new ServeConfigError(`cannot bind ${config.bind_address}: not an address of this machine (--bind or [serve] bind_address)`);
    throw error;
  }
  book.resume();
  return {
    config,
    book,
    server,
    address: server.address() as AddressInfo,
    async stop() {
      book.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      unlock();
    },
  };
}
