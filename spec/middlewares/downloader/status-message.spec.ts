import { describe, expect, it } from '@jest/globals';
import { responseStatusMessage } from '../../../src/middlewares/downloader/status-message.js';

describe('responseStatusMessage', () => {
  it("reads as Scrapy's response_status_message (Twisted's reason phrases)", () => {
    expect([200, 301, 404, 408, 500, 502, 503, 504].map(responseStatusMessage)).toEqual([
      '200 OK', '301 Moved Permanently', '404 Not Found', '408 Request Time-out', '500 Internal Server Error',
      '502 Bad Gateway', '503 Service Unavailable', '504 Gateway Time-out',
    ]);
  });

  it("says 'Unknown Status' for codes Twisted does not name, as Scrapy 2.8 does", () => {
    expect([429, 522, 524, 999].map(responseStatusMessage)).toEqual(['429 Unknown Status', '522 Unknown Status', '524 Unknown Status', '999 Unknown Status']);
  });
});
