/**
 * What a client library says about a failure is shown only once the
 * store's secrets are gone from it: an FTP server that echoes the PASS
 * line, an SDK error that names the access key id, a URL with its password.
 */
import { describe, expect, it } from '@jest/globals';
import { scrubSecrets, storeFailure } from '../../src/stores/store-failure.js';
import { StoreError } from '../../src/stores/store-error.js';

describe('storeFailure', () => {
  it('removes every secret the message repeats, the longest first, and masks URL passwords', () => {
    const error = new Error('530 Login incorrect for PASS hunter2hunter2 (user key AKIAEXAMPLE, tried ftp://bob:hunter2@host/)');
    const failure = storeFailure('ftp://bob:***@host/dir/a.txt', error, ['hunter2', 'hunter2hunter2', 'AKIAEXAMPLE', undefined]);
    expect(failure).toBeInstanceOf(StoreError);
    expect(failure.message).toBe('Could not store ftp://bob:***@host/dir/a.txt: 530 Login incorrect for PASS *** (user key ***, tried ftp://bob:***@host/)');
    expect(failure.cause).toBe(error);
  });

  it('keeps the first line, adds the hint, and passes a StoreError through as it is', () => {
    expect(storeFailure('s3://b/k', new Error('Error: self-signed certificate\n    at TLSSocket…'), [], 'set AWS_VERIFY to false').message).toBe(
      'Could not store s3://b/k: self-signed certificate; set AWS_VERIFY to false',
    );
    const already = new StoreError('sftp://h/x', 'refused');
    expect(storeFailure('other', already, ['refused'])).toBe(already);
  });

  it('leaves secrets of one or two characters alone rather than starring every such letter', () => {
    expect(scrubSecrets('a b c', ['a', 'bc'])).toBe('a b c');
  });
});
