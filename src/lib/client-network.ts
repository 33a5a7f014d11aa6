import { ipv4Text, ipv4Value, ipv6Text, ipv6Value } from './ip-address';

/** The key of requests without a client address (only possible off Cloudflare). */
export const UNKNOWN_NETWORK = 'unknown';
/** How much of an address that cannot be read is kept as its key. */
const UNREAD_KEPT = 64;
/** ::ffff:0:0/96, IPv4-mapped IPv6: the IPv4 address in its last 32 bits is the client. */
const IPV4_MAPPED = 0xffffn;

/**
 * The network a client address belongs to, as the key its limits are counted on (the anonymous
 * rate limit, the sign-in lock-outs): an IPv4 address is its own network; an IPv6 address counts
 * as its /64, the least a client is given (RFC 6177), so hopping between the addresses of one's
 * own /64 wins nothing. An IPv4-mapped IPv6 address is the IPv4 address. Every spelling of one
 * address gives one key: `2001:DB8:0:0:1::5%eth0` is `2001:db8::/64`, `001.2.3.4` is `1.2.3.4`.
 * What cannot be read as an address (CF-Connecting-IP is set by the client off Cloudflare) is its
 * own key, marked so it can never be a network's nor the lock-outs' `*`, and cut to 64 characters.
 */
export function networkOf(address: string | null | undefined): string {
  if (address == null || address.trim() === '') return UNKNOWN_NETWORK;
  const text = address.trim();
  const v4 = ipv4Value(text);
  if (v4 !== null) return ipv4Text(v4);
  const v6 = ipv6Value(text.replace(/%[^%]*$/, ''));
  if (v6 === null) return `unread:${text.slice(0, UNREAD_KEPT)}`;
  if (v6 >> 32n === IPV4_MAPPED) return ipv4Text(v6 & 0xffffffffn);
  return `${ipv6Text((v6 >> 64n) << 64n)}/64`;
}

/** The network of the client that sent the request (`CF-Connecting-IP`, set by Cloudflare). */
export const clientNetwork = (c: { req: { header(name: string): string | undefined } }): string => networkOf(c.req.header('CF-Connecting-IP'));

/**
 * The network of the shopper a request is for: the one a storefront server named in X-Buyer-IP
 * (set once src/middleware/rate-limit.ts has allowed it), else the client's. Limits and sign-in
 * lock-outs count this, so a server-rendered storefront's shoppers are each their own.
 */
export const shopperNetwork = (c: { req: { header(name: string): string | undefined }; var: { buyerNetwork?: string } }): string => c.var.buyerNetwork ?? clientNetwork(c);
