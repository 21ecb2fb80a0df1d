import { describe, expect, it } from '@jest/globals';
import { mergeStats } from '../../src/frontier/merge-stats.js';

describe('mergeStats: the stats of a shared crawl from its workers\' snapshots', () => {
  const first = {
    'downloader/request_count': 120,
    'item_scraped_count': 100,
    'log_count/INFO': 9,
    'memusage/max': 90_000_000,
    'request_depth_max': 7,
    'elapsed_time_seconds': 12.5,
    'start_time': '2026-11-25T10:00:05.000Z',
    'finish_time': '2026-11-25T10:00:17.500Z',
    'finish_reason': 'finished',
  };
  const second = {
    'downloader/request_count': 80,
    'item_scraped_count': 75,
    'memusage/max': 120_000_000,
    'request_depth_max': 9,
    'elapsed_time_seconds': 20,
    'start_time': '2026-11-25T10:00:01.000Z',
    'finish_time': '2026-11-25T10:00:21.000Z',
    'finish_reason': 'shutdown',
    'frontier/leases_released': 3,
  };

  it('adds counters, keeps peaks, the earliest start, the latest finish and the longest run, and lists differing reasons', () => {
    expect(mergeStats([first, second])).toEqual({
      'downloader/request_count': 200,
      'item_scraped_count': 175,
      'log_count/INFO': 9,
      'memusage/max': 120_000_000,
      'request_depth_max': 9,
      'elapsed_time_seconds': 20,
      'start_time': '2026-11-25T10:00:01.000Z',
      'finish_time': '2026-11-25T10:00:21.000Z',
      'finish_reason': 'finished, shutdown',
      'frontier/leases_released': 3,
    });
  });

  it('a reason every worker gave is given once; a minimum keeps the lowest; one snapshot is itself', () => {
    expect(mergeStats([{ finish_reason: 'finished', 'x/min': 4 }, { finish_reason: 'finished', 'x/min': 2 }])).toEqual({ finish_reason: 'finished', 'x/min': 2 });
    expect(mergeStats([first])).toEqual(first);
    expect(mergeStats([])).toEqual({});
  });

  it('keeps each memusage reading from its highest worker, so memusage/startup never exceeds memusage/max', () => {
    const workers = [
      { 'memusage/startup': 70_000_000, 'memusage/max': 90_000_000, 'memusage/warning_reached': 1 },
      { 'memusage/startup': 80_000_000, 'memusage/max': 85_000_000, 'memusage/warning_reached': 1 },
    ];
    expect(mergeStats(workers)).toEqual({ 'memusage/max': 90_000_000, 'memusage/startup': 80_000_000, 'memusage/warning_reached': 1 });
    // A snapshot with a startup reading but no peak yet still bounds the merged peak.
    expect(mergeStats([{ 'memusage/startup': 95_000_000 }, { 'memusage/startup': 60_000_000, 'memusage/max': 90_000_000 }])).toEqual({ 'memusage/max': 95_000_000, 'memusage/startup': 95_000_000 });
    for (let n = 2; n <= 5; n += 1) {
      const merged = mergeStats(Array.from({ length: n }, (_, i) => ({ 'memusage/startup': 60_000_000 + i, 'memusage/max': 61_000_000 + i })));
      expect(merged['memusage/startup']).toBeLessThanOrEqual(merged['memusage/max'] as number);
    }
  });
});
