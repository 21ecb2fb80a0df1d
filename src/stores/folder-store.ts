/**
 * A store in a local folder (`FILES_STORE = 'downloads'` or `file:///…`),
 * Scrapy's FSFilesStore: objects are files under the folder, written to a
 * temporary name beside the target (`.<name>.<pid>.seine-tmp`) and renamed
 * over it once whole, so a reader or a later run never sees half a file.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type { ObjectStore, StoredObject } from './object-store.js';
import { StoreError } from './store-error.js';

export class FolderStore implements ObjectStore {
  readonly displayUri: string;
  private readonly root: string;

  constructor(uri: string) {
    this.root = resolve(uri.startsWith('file://') ? fileURLToPath(uri) : uri);
    this.displayUri = this.root;
  }

  private pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + '/')) throw new StoreError(join(this.displayUri, key), 'the key leaves the store folder');
    return path;
  }

  /** Folders made by put(): a crawl storing thousands of images need not mkdir each time. */
  private readonly madeFolders = new Set<string>();

  async put(key: string, body: Readable | Buffer): Promise<void> {
    const path = this.pathOf(key);
    const folder = dirname(path);
    const temporary = join(folder, `.${basename(path)}.${process.pid}.seine-tmp`);
    try {
      const known = this.madeFolders.has(folder);
      if (!known) {
        await mkdir(folder, { recursive: true });
        this.madeFolders.add(folder);
      }
      if (Buffer.isBuffer(body)) {
        // Bytes in memory (images, thumbnails) in one write, without a stream's machinery.
        await writeFile(temporary, body).catch(async (error: NodeJS.ErrnoException) => {
          if (!known || error.code !== 'ENOENT') throw error;
          // The folder was removed under the crawl: made again, the same bytes written.
          await mkdir(folder, { recursive: true });
          await writeFile(temporary, body);
        });
      } else {
        await pipeline(body, createWriteStream(temporary));
      }
      await rename(temporary, path);
    } catch (error) {
      // The folder may have been removed under the crawl: the next attempt (a new stream) makes it again.
      this.madeFolders.delete(folder);
      await rm(temporary, { force: true }).catch(() => undefined);
      throw new StoreError(path, (error as Error).message, { cause: error });
    }
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    const path = this.pathOf(key);
    try {
      const found = await stat(path);
      if (!found.isFile()) return undefined;
      const md5 = createHash('md5');
      for await (const chunk of createReadStream(path)) md5.update(chunk as Buffer);
      return { lastModified: found.mtimeMs, checksum: md5.digest('hex') };
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {}
}
