import { describe, expect, it } from 'vitest';
import { networkOf, UNKNOWN_NETWORK } from '../../src/lib/client-network';

describe('networkOf: the key a client address is counted on', () => {
  it('keeps an IPv4 address whole, in its one spelling', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf(' 203.0.113.007 ')).toBe('203.0.113.7');
    expect(networkOf('203.0.113.8')).not.toBe(networkOf('203.0.113.7'));
  });

  it('cuts an IPv6 address to its /64, whatever its spelling', () => {
    const key = '2001:db8:1:2::/64';
    for (const address of [
      '2001:db8:1:2::1',
      '2001:db8:1:2::2',
      '2001:DB8:1:2:FFFF:FFFF:FFFF:FFFF',
      '2001:0db8:0001:0002:0000:0000:0000:0001',
      '2001:db8:1:2:0::1',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2::203.0.113.7',
    ])
      expect(networkOf(address), address).toBe(key);
    expect(networkOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(networkOf('2001:db8::1')).toBe('2001:db8::/64');
    expect(networkOf('2001:0:0:1::1')).toBe('2001:0:0:1::/64');
    expect(networkOf('::1')).toBe('::/64');
    expect(networkOf('fe80::1%25en0')).toBe('fe80::/64');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('::FFFF:CB00:7107')).toBe('203.0.113.7');
    expect(networkOf('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('gives what is not an address a key of its own that no network or lock-out row can have, and never throws', () => {
    const unread = [
      '',
      'unknown',
      '*',
      '203.0.113.256',
      '203.0.113',
      '1.2.3.4.5',
      '2001:db8::1::2',
      '2001:db8:1:2:3:4:5:6:7',
      '12345::',
      'g::1',
      ':::',
      '[2001:db8::1]',
      'x'.repeat(10_000),
    ];
    for (const text of unread) {
      const key = networkOf(text);
      expect(key === UNKNOWN_NETWORK || key.startsWith('unread:'), text).toBe(true);
      expect(key.length).toBeLessThanOrEqual('unread:'.length + 64);
    }
    expect(networkOf('*')).not.toBe('*');
    expect(networkOf('not an address')).not.toBe(networkOf('not an address either'));
    expect(networkOf(undefined)).toBe(UNKNOWN_NETWORK);
    expect(networkOf('   ')).toBe(UNKNOWN_NETWORK);
  });
});
