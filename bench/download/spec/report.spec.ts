import { describe, expect, it } from '@jest/globals';
import { formatOverhead, formatTable, median, summarize, type Sample } from '../report.js';

const sample = (client: string, mode: string, cpuUs: number, reqPerSec = 1000): Sample => ({ client, mode, reqPerSec, cpuUs, serverUs: 50, rssLoadMb: 1, rssRunMb: 2 });

describe('bench:download report', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('summarizes runs per client and mode, with the range of the CPU figures', () => {
    const rows = summarize([sample('a', 'seq', 300, 10), sample('b', 'seq', 100), sample('a', 'seq', 100, 30), sample('a', 'seq', 200, 20)]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ client: 'a', mode: 'seq', runs: 3, cpuUs: 200, cpuMin: 100, cpuMax: 300, reqPerSec: 20 });
    expect(formatTable(rows).split('\n')).toHaveLength(4);
  });

  it('states the difference of medians in µs and as a share of the page budget', () => {
    const rows = summarize([sample('got', 'seq', 450), sample('http', 'seq', 200), sample('got', '16', 400), sample('http', '16', 500)]);
    expect(formatOverhead(rows, ['got'], ['got', 'http'], 5000)).toBe('got − http: seq +250 µs (+5.0 %, ×2.25); 16 −100 µs (−2.0 %, ×0.80)');
  });
});
