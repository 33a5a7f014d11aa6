import { describe, expect, it } from 'vitest';
import { monthsAndDays, periodsOf, periodStart } from '../../src/modules/reports/periods';

describe('report periods', () => {
  it('start weeks on Monday and months on the 1st', () => {
    expect(periodStart('2025-03-09', 'week')).toBe('2025-03-03'); // a Sunday
    expect(periodStart('2025-03-03', 'week')).toBe('2025-03-03');
    expect(periodStart('2025-02-28', 'month')).toBe('2025-02-01');
    expect(periodsOf('2024-12-30', '2025-01-02', 'day').map((p) => p.start)).toEqual(['2024-12-30', '2024-12-31', '2025-01-01', '2025-01-02']);
    expect(periodsOf('2025-01-31', '2025-03-01', 'month')).toEqual([
      { key: '2025-01-01', start: '2025-01-31', end: '2025-01-31' },
      { key: '2025-02-01', start: '2025-02-01', end: '2025-02-28' },
      { key: '2025-03-01', start: '2025-03-01', end: '2025-03-01' },
    ]);
  });

  it('split a range into whole months and the days around them', () => {
    expect(monthsAndDays('2025-01-01', '2025-12-31')).toEqual({ months: ['2025-01', '2025-12'], days: [] });
    expect(monthsAndDays('2025-01-15', '2025-04-10')).toEqual({
      months: ['2025-02', '2025-03'],
      days: [
        ['2025-01-15', '2025-01-31'],
        ['2025-04-01', '2025-04-10'],
      ],
    });
    expect(monthsAndDays('2025-03-04', '2025-04-20')).toEqual({ days: [['2025-03-04', '2025-04-20']] });
    expect(monthsAndDays('2024-02-01', '2024-02-29')).toEqual({ months: ['2024-02', '2024-02'], days: [] });
  });
});
