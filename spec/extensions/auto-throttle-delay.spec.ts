import { describe, expect, it } from '@jest/globals';
import { autoThrottleDebugLine, nextAutoThrottleDelay } from '../../src/extensions/auto-throttle-delay.js';
import { SCENARIOS } from './autothrottle-fixture.js';

const limits = (target: number, minDelay: number, maxDelay: number) => ({ targetConcurrency: target, minDelay, maxDelay });

describe('nextAutoThrottleDelay', () => {
  it.each(SCENARIOS.map((s) => [s.name, s] as const))("%s: Scrapy's delays, step by step", (_name, scenario) => {
    const target = scenario.settings['AUTOTHROTTLE_TARGET_CONCURRENCY'] ?? 1;
    let delay = scenario.startDelay;
    for (const step of scenario.steps) {
      delay = nextAutoThrottleDelay(delay, step.latency, step.status, limits(target, scenario.minDelay, scenario.maxDelay));
      expect(delay).toBe(step.delay);
    }
  });

  it('moves halfway down towards latency / target concurrency, and jumps up to it', () => {
    expect(nextAutoThrottleDelay(1, 0.2, 200, limits(1, 0, 60))).toBe(0.6);
    expect(nextAutoThrottleDelay(1, 0.2, 200, limits(2, 0, 60))).toBe(0.55);
    expect(nextAutoThrottleDelay(1, 3, 200, limits(1, 0, 60))).toBe(3);
    expect(nextAutoThrottleDelay(1, 3, 200, limits(4, 0, 60))).toBe(0.875);
  });

  it('stays within [min delay, max delay]', () => {
    expect(nextAutoThrottleDelay(0.5, 0, 200, limits(1, 0.4, 60))).toBe(0.4);
    expect(nextAutoThrottleDelay(0.5, 100, 200, limits(1, 0, 2))).toBe(2);
    // A start delay above the maximum is brought under it by the first response.
    expect(nextAutoThrottleDelay(5, 0.2, 200, limits(1, 0, 1))).toBe(1);
  });

  it('lets a non-200 response raise the delay but never lower it', () => {
    expect(nextAutoThrottleDelay(0.5, 0.1, 500, limits(1, 0, 60))).toBe(0.5);
    expect(nextAutoThrottleDelay(0.5, 0.1, 404, limits(1, 0, 60))).toBe(0.5);
    expect(nextAutoThrottleDelay(0.5, 0.1, 201, limits(1, 0, 60))).toBe(0.5);
    expect(nextAutoThrottleDelay(0.5, 2, 503, limits(1, 0, 60))).toBe(2);
  });
});

describe('autoThrottleDebugLine', () => {
  it("writes Scrapy's line for every recorded step", () => {
    for (const scenario of SCENARIOS) {
      let previousDelay = scenario.startDelay;
      for (const step of scenario.steps) {
        const line = autoThrottleDebugLine({
          slot: 'example.com',
          concurrency: step.transferring,
          delay: step.delay,
          previousDelay,
          latency: step.latency,
          size: step.size,
        });
        expect(line).toBe(step.log);
        previousDelay = step.delay;
      }
    }
  });

  it("truncates milliseconds towards zero as Python's %d does, and signs the change", () => {
    expect(autoThrottleDebugLine({ slot: 's', concurrency: 3, delay: 0.2375, previousDelay: 0.325, latency: 0.1509, size: 0 })).toBe(
      'slot: s | conc: 3 | delay:  237 ms (-87) | latency:  150 ms | size:     0 bytes',
    );
    expect(autoThrottleDebugLine({ slot: 's', concurrency: 1, delay: 0.5, previousDelay: 0.5004, latency: 12.3456, size: 7 })).toBe(
      'slot: s | conc: 1 | delay:  500 ms (+0) | latency:12345 ms | size:     7 bytes',
    );
  });
});
