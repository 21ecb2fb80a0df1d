/**
 * openStore: the scheme picks the store; nothing connects until the first
 * put or stat; an unknown scheme or an unreadable URI is one line that
 * shows no credentials.
 */
import { describe, expect, it } from '@jest/globals';
import { FolderStore } from '../../src/stores/folder-store.js';
import { FtpStore } from '../../src/stores/ftp-store.js';
import { S3Store } from '../../src/stores/s3-store.js';
import { SftpStore } from '../../src/stores/sftp-store.js';
import { StoreError } from '../../src/stores/store-error.js';
import { isKnownStoreUri, openStore } from '../../src/stores/store-registry.js';

const noSettings = { get: () => undefined };

describe('openStore', () => {
  it('opens the store each scheme names, without connecting, and shows each URI masked', async () => {
    const cases: Array<[string, new (...args: never[]) => unknown, string]> = [
      ['downloads', FolderStore, `${process.cwd()}/downloads`],
      ['file:///srv/files', FolderStore, '/srv/files'],
      ['s3://AKIAEXAMPLE:wJalr%2BXUtn@my-bucket/media/', S3Store, 's3://my-bucket/media'],
      ['s3://my-bucket', S3Store, 's3://my-bucket'],
      ['ftp://scraper:s3cret@files.example.com/drop', FtpStore, 'ftp://scraper:***@files.example.com/drop'],
      ['FTPS://scraper:p%40ss@files.example.com:2121/drop/', FtpStore, 'ftps://scraper:***@files.example.com:2121/drop'],
      ['ftp://files.example.com/pub', FtpStore, 'ftp://files.example.com/pub'],
      ['sftp://deploy:s3cret@host.example/srv/feeds', SftpStore, 'sftp://deploy:***@host.example/srv/feeds'],
    ];
    for (const [uri, kind, shown] of cases) {
      const store = await openStore(uri, noSettings);
      expect([uri, store instanceof kind, store.displayUri]).toEqual([uri, true, shown]);
      // Closing a store that never connected, or twice, is harmless.
      await store.close();
      await store.close();
    }
  });

  it('refuses an unknown scheme in one line that lists the supported ones and hides the user part', async () => {
    expect(isKnownStoreUri('gs://bucket/x')).toBe(false);
    expect(isKnownStoreUri('sftp://host/x')).toBe(true);
    const failure = openStore('gs://key:secret@bucket/files', noSettings);
    await expect(failure).rejects.toBeInstanceOf(StoreError);
    await expect(failure).rejects.toThrow(
      /^Could not store gs:\/\/\*\*\*@bucket\/files: unsupported scheme 'gs'; use a folder path or one of file:\/\/, s3:\/\/, ftp:\/\/, ftps:\/\/, sftp:\/\/$/,
    );
  });

  it('says how to write a URI it cannot read, without its credentials', async () => {
    await expect(openStore('ftp://user:pa ss@[bad/x', noSettings)).rejects.toThrow(
      "Could not store ftp://***@[bad/x: not a valid URI; write it as ftp://[user:password@]host[:port]/path (percent-encode '/', '@' and ':' in a password)",
    );
  });
});
