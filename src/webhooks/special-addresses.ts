/**
 * IP literals a webhook URL may not name: every range of the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (RFC 6890 and later), plus the rest of the IPv4 and IPv6 address space that is
 * not public unicast (multicast, reserved, site-local). IPv6 is checked against an allowlist first:
 * only global unicast (2000::/3) can pass, so every form that embeds or maps an IPv4 address
 * (IPv4-mapped and -translated, NAT64, 6to4, Teredo, IPv4-compatible) is refused as a whole range
 * rather than judged by the address inside it; a receiver with a public IPv4 address is reached by
 * writing that address (or, better, its DNS name).
 */

import { ipv4Value, ipv6Value } from '../lib/ip-address';

interface Range {
  base: bigint;
  bits: number;
  what: string;
  /** The last 32 bits are an IPv4 address: named in the answer when it is special itself. */
  embedsIpv4?: true;
}

/** Most specific first, so the narrower name wins (Teredo before the IETF block around it). */
const bySpecificity = (ranges: Range[]) => ranges.sort((a, b) => b.bits - a.bits);

const v4 = (base: string, bits: number, what: string): Range => ({ base: ipv4Value(base)!, bits, what: `${what} (${base}/${bits})` });
const v6 = (base: string, bits: number, what: string, embedsIpv4?: true): Range => ({ base: ipv6Value(base)!, bits, what: `${what} (${base}/${bits})`, embedsIpv4 });

const IPV4_REFUSED = bySpecificity([
  v4('0.0.0.0', 8, 'a "this network" address'),
  v4('10.0.0.0', 8, 'a private address'),
  v4('100.64.0.0', 10, 'a shared carrier-grade NAT address'),
  v4('127.0.0.0', 8, 'a loopback address'),
  v4('169.254.0.0', 16, 'a link-local address'),
  v4('172.16.0.0', 12, 'a private address'),
  v4('192.0.0.0', 24, 'an IETF protocol assignment'),
  v4('192.0.2.0', 24, 'a documentation address'),
  v4('192.31.196.0', 24, 'an AS112 DNS address'),
  v4('192.52.193.0', 24, 'an AMT relay address'),
  v4('192.88.99.0', 24, 'a 6to4 relay anycast address'),
  v4('192.168.0.0', 16, 'a private address'),
  v4('192.175.48.0', 24, 'an AS112 DNS address'),
  v4('198.18.0.0', 15, 'a benchmarking address'),
  v4('198.51.100.0', 24, 'a documentation address'),
  v4('203.0.113.0', 24, 'a documentation address'),
  v4('224.0.0.0', 4, 'a multicast address'),
  v4('240.0.0.0', 4, 'a reserved address'),
  v4('255.255.255.255', 32, 'the broadcast address'),
]);

const GLOBAL_UNICAST = v6('2000::', 3, 'global unicast');

const IPV6_REFUSED = bySpecificity([
  v6('::', 128, 'the unspecified address'),
  v6('::1', 128, 'a loopback address'),
  v6('::', 96, 'an IPv4-compatible address (deprecated)', true),
  v6('::ffff:0:0', 96, 'an IPv4-mapped address', true),
  v6('::ffff:0:0:0', 96, 'an IPv4-translated address', true),
  v6('64:ff9b::', 96, 'a NAT64 address', true),
  v6('64:ff9b:1::', 48, 'a local-use NAT64 address'),
  v6('100::', 64, 'a discard-only address'),
  v6('100:0:0:1::', 64, 'a dummy IPv6 prefix address'),
  v6('2001::', 23, 'an IETF protocol assignment'),
  v6('2001::', 32, 'a Teredo address'),
  v6('2001:2::', 48, 'a benchmarking address'),
  v6('2001:db8::', 32, 'a documentation address'),
  v6('2002::', 16, 'a 6to4 address'),
  v6('2620:4f:8000::', 48, 'an AS112 DNS address'),
  v6('3fff::', 20, 'a documentation address'),
  v6('5f00::', 16, 'a segment routing (SRv6) address'),
  v6('fc00::', 7, 'a unique local address'),
  v6('fe80::', 10, 'a link-local address'),
  v6('fec0::', 10, 'a site-local address (deprecated)'),
  v6('ff00::', 8, 'a multicast address'),
]);

const within = (address: bigint, range: Range, width: number) => address >> BigInt(width - range.bits) === range.base >> BigInt(width - range.bits);

const rangeOf = (address: bigint, ranges: Range[], width: number) => ranges.find((range) => within(address, range, width));

function ipv6Problem(address: bigint): string | null {
  const range = rangeOf(address, IPV6_REFUSED, 128);
  if (!range) return within(address, GLOBAL_UNICAST, 128) ? null : 'an address outside IPv6 global unicast (2000::/3)';
  const inner = range.embedsIpv4 ? rangeOf(address & 0xffffffffn, IPV4_REFUSED, 32) : undefined;
  return inner ? `${range.what} for ${inner.what}` : range.what;
}

/** What a special IPv4 (dotted quad) or IPv6 (`[...]`) host is, or null for a public address or a name. */
export function specialAddress(host: string): string | null {
  if (host.startsWith('[') && host.endsWith(']')) {
    const address = ipv6Value(host.slice(1, -1));
    // The URL parser only lets valid IPv6 through; anything unreadable here is refused, never waved on.
    return address === null ? 'an IPv6 address that cannot be read' : ipv6Problem(address);
  }
  // The URL parser has already turned every other IPv4 spelling (2130706433, 0x7f.1) into a dotted quad.
  const address = ipv4Value(host);
  return address === null ? null : (rangeOf(address, IPV4_REFUSED, 32)?.what ?? null);
}
