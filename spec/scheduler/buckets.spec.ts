import { describe, expect, it } from '@jest/globals';
import { FifoBucket, LifoBucket } from '../../src/scheduler/buckets.js';

describe('buckets', () => {
  it('LifoBucket pops the newest value first', () => {
    const bucket = new LifoBucket<number>();
    [1, 2, 3].forEach((n) => bucket.push(n));
    expect([bucket.pop(), bucket.pop(), bucket.size, bucket.pop(), bucket.pop()]).toEqual([3, 2, 1, 1, undefined]);
  });

  it('FifoBucket pops the oldest value first, across growth from 16 slots', () => {
    const bucket = new FifoBucket<number>();
    const out: Array<number | undefined> = [];
    for (let i = 0; i < 10; i++) bucket.push(i);
    for (let i = 0; i < 7; i++) out.push(bucket.pop());
    for (let i = 10; i < 50; i++) bucket.push(i);
    expect(bucket.size).toBe(43);
    while (bucket.size > 0) out.push(bucket.pop());
    expect(out).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(bucket.pop()).toBeUndefined();
  });
});
