import { describe, expect, it } from 'vitest';
import { backoffStepSeconds, DELIVERY_MAX_RETRIES, hasRetryLeft, MAX_RETRY_DELAY_SECONDS, retryDelaySeconds } from '../../src/webhooks/backoff';
import { eventPayload } from '../../src/webhooks/payload';

const lowest = () => 0;
const highest = () => 0.999999;

describe('retry backoff', () => {
  it('doubles from the base with equal jitter: between half the step and the step, in whole seconds', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffStepSeconds(n, 30))).toEqual([30, 60, 120, 240, 480]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelaySeconds(n, 30, lowest))).toEqual([15, 30, 60, 120, 240]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelaySeconds(n, 30, highest))).toEqual([30, 60, 120, 240, 480]);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelaySeconds(3, 30);
      expect(Number.isInteger(delay)).toBe(true);
      expect(delay).toBeGreaterThanOrEqual(60);
      expect(delay).toBeLessThanOrEqual(120);
    }
  });

  it('caps every delay at 6 hours, also for absurd attempt counts', () => {
    expect(backoffStepSeconds(11, 30)).toBe(MAX_RETRY_DELAY_SECONDS);
    expect(retryDelaySeconds(20, 30, highest)).toBe(6 * 3600);
    expect(retryDelaySeconds(5000, 30, highest)).toBe(6 * 3600);
  });

  it('never asks for less than a second (the test base of 1 s)', () => {
    expect(retryDelaySeconds(1, 1, lowest)).toBe(1);
    expect(retryDelaySeconds(2, 1, lowest)).toBe(1);
  });

  it('keeps retrying for more than 24 hours with max_retries 20 and the default base, even with the least jitter', () => {
    // max_retries 20: attempt 1 plus 20 retries, so a delay follows each of attempts 1..20 and attempt 21 is dead-lettered.
    const attempts = Array.from({ length: 21 }, (_, i) => i + 1);
    expect(attempts.filter((n) => hasRetryLeft(n))).toHaveLength(DELIVERY_MAX_RETRIES);
    const worst = attempts.filter((n) => hasRetryLeft(n)).map((n) => retryDelaySeconds(n, 30, lowest));
    // 15, 30, ... 7680 (10 doubling steps) then ten capped steps of 3 hours at the least.
    expect(worst.slice(0, 11)).toEqual([15, 30, 60, 120, 240, 480, 960, 1920, 3840, 7680, 10800]);
    const total = worst.reduce((sum, s) => sum + s, 0);
    expect(total).toBe(123_345); // 34.3 hours
    expect(total).toBeGreaterThan(24 * 3600);
    const best = attempts.filter((n) => hasRetryLeft(n)).map((n) => retryDelaySeconds(n, 30, highest));
    expect(best.reduce((sum, s) => sum + s, 0)).toBe(246_690); // 68.5 hours at most
  });
});

describe('eventPayload', () => {
  const event = { id: 'evt_01', type: 'order.placed', data: { orderId: 'ord_1', total: 19.99, nested: { b: 1, a: [1, 2] } }, createdAt: '2026-05-01T10:00:00.123Z' };

  it('is the envelope {id, event, data, timestamp, position, resourceId, sequence}, in that order', () => {
    expect(eventPayload({ ...event, position: 7, resourceId: 'ord_1', sequence: 2 })).toBe(
      '{"id":"evt_01","event":"order.placed","data":{"orderId":"ord_1","total":19.99,"nested":{"b":1,"a":[1,2]}},"timestamp":"2026-05-01T10:00:00.123Z","position":7,"resourceId":"ord_1","sequence":2}',
    );
  });

  it('comes out byte for byte the same every time', () => {
    expect(eventPayload(structuredClone(event))).toBe(eventPayload(event));
  });

  it('writes SQLite-style timestamps as ISO 8601 UTC', () => {
    expect(JSON.parse(eventPayload({ ...event, createdAt: '2026-05-01 10:00:00' })).timestamp).toBe('2026-05-01T10:00:00.000Z');
  });
});
