import { describe, expect, it } from '@jest/globals';
import { joinMessage } from '../../src/frontier/join-message.js';

describe('joinMessage: what a worker that does not run start() says as it joins', () => {
  it('a crawl with requests queued or in flight is joined in progress, never called over', () => {
    expect(joinMessage('quotes', { state: 'done', queued: 48, leases: 16 })).toBe(
      'Joining a crawl in progress (queued: 48, in flight: 16): another worker ran start(); this worker takes requests from the shared queue (`seine frontier quotes clear` would discard the shared crawl so that the next run starts over)',
    );
    expect(joinMessage('quotes', { state: 'done', queued: 0, leases: 1 })).toMatch(/^Joining a crawl in progress \(queued: 0, in flight: 1\)/);
    expect(joinMessage('quotes', { state: 'busy' })).toBe('Joining a crawl in progress: another worker is running start(); this worker takes requests from the shared queue');
  });

  it('a crawl with nothing left says it has finished, and how to start over', () => {
    expect(joinMessage('quotes', { state: 'done', queued: 0, leases: 0 })).toBe(
      'This crawl has finished (nothing queued or in flight): start() already ran, so this worker fetches nothing (`seine frontier quotes clear` discards it so that the next run starts over)',
    );
  });
});
