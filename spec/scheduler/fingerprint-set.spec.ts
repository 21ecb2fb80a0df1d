import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { FingerprintSet } from '../../src/scheduler/fingerprint-set.js';

const sha1 = (n: number): string => createHash('sha1').update(String(n)).digest('hex');

describe('FingerprintSet', () => {
  it('answers as a Set<string> of the same strings would, through growth', () => {
    const set = new FingerprintSet(16);
    const reference = new Set<string>();
    const candidates: string[] = [];
    for (let n = 0; n < 5000; n++) {
      candidates.push(sha1(n), sha1(n % 997)); // packed: 40 lowercase hex digits, many repeats
      if (n % 50 === 0) candidates.push(sha1(n).toUpperCase(), sha1(n).slice(1), `${sha1(n).slice(1)}g`, `url:${n % 7}`, ''); // strings of their own
    }
    candidates.push('0'.repeat(40), 'f'.repeat(40), '0'.repeat(39) + '1', '0'.repeat(40));
    for (const candidate of candidates) {
      expect(set.has(candidate)).toBe(reference.has(candidate));
      const isNew = !reference.has(candidate);
      reference.add(candidate);
      expect(set.add(candidate)).toBe(isNew);
      expect(set.size).toBe(reference.size);
    }
    for (const candidate of reference) expect(set.has(candidate)).toBe(true);
    expect(set.has(sha1(-1))).toBe(false);
    expect(set.has(sha1(1).toUpperCase().slice(0, 40))).toBe(reference.has(sha1(1).toUpperCase()));
  });

  it('keeps upper- and lowercase hex apart, as strings are', () => {
    const set = new FingerprintSet();
    const lower = sha1(42);
    expect(set.add(lower)).toBe(true);
    expect(set.has(lower.toUpperCase())).toBe(false);
    expect(set.add(lower.toUpperCase())).toBe(true);
    expect(set.add(lower)).toBe(false);
    expect(set.size).toBe(2);
  });

  it('packs fingerprints whose first words are equal (a user fingerprint need not be uniform)', () => {
    const set = new FingerprintSet(16);
    for (let n = 0; n < 3000; n++) expect(set.add('00000000'.repeat(4) + n.toString(16).padStart(8, '0'))).toBe(true);
    for (let n = 0; n < 3000; n++) expect(set.add('00000000'.repeat(4) + n.toString(16).padStart(8, '0'))).toBe(false);
    expect(set.size).toBe(3000);
  });
});
