import { describe, expect, it } from 'vitest';
import { formatMinor, formatMoney, hasAtMostDecimals, isoDigits, toMajor, toMinor } from '../../src/lib/money';

describe('money', () => {
  it('converts major to minor units without float error', () => {
    expect(toMinor(19.99)).toBe(1999);
    expect(toMinor(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996 in floats
    expect(toMinor(0)).toBe(0);
    expect(toMinor(10)).toBe(1000);
    expect(toMinor(999_999_999.99)).toBe(99_999_999_999);
    expect(toMinor(-4.2)).toBe(-420);
    expect(toMinor(1234, 0)).toBe(1234);
    expect(toMinor(1.234, 3)).toBe(1234);
  });

  it('refuses more decimals than the currency has', () => {
    expect(hasAtMostDecimals(19.999)).toBe(false);
    expect(hasAtMostDecimals(19.99)).toBe(true);
    expect(hasAtMostDecimals(Number.NaN)).toBe(false);
    expect(() => toMinor(0.001)).toThrow(RangeError);
  });

  it('converts minor to major units exactly', () => {
    expect(toMajor(1999)).toBe(19.99);
    expect(toMajor(29)).toBe(0.29);
    expect(toMajor(5)).toBe(0.05);
    expect(toMajor(0)).toBe(0);
    expect(toMajor(-420)).toBe(-4.2);
    expect(toMajor(1234, 0)).toBe(1234);
    expect(toMajor(1234, 3)).toBe(1.234);
  });

  it('round-trips every seventh cent amount up to 1,000.00', () => {
    for (let minor = 0; minor < 100_000; minor += 7) expect(toMinor(toMajor(minor))).toBe(minor);
  });

  it("shows an amount with exactly its currency's decimals", () => {
    expect(formatMoney(1200, 'JPY', 0)).toBe('1200 JPY');
    expect(formatMoney(19.9, 'EUR', 2)).toBe('19.90 EUR');
    expect(formatMoney(1.234, 'KWD', 3)).toBe('1.234 KWD');
    expect(formatMoney(1.5, 'KWD', 3)).toBe('1.500 KWD');
    expect(formatMoney(-0.29, 'USD', 2)).toBe('-0.29 USD');
    expect(formatMinor(1234, 'KWD', 3)).toBe('1.234 KWD');
    expect(formatMinor(120000, 'JPY', 0)).toBe('120000 JPY');
    expect([isoDigits('JPY'), isoDigits('KWD'), isoDigits('EUR'), isoDigits('nope')]).toEqual([0, 3, 2, 2]);
  });
});
