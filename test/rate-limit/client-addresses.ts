/** Four hex digits no other test picks. */
export const hexGroup = () => crypto.randomUUID().slice(0, 4);

/** An address in a /64 of its own: limits count an IPv6 client per /64 (src/lib/client-network.ts). */
export const newIp = () => `2001:db8:${hexGroup()}:${hexGroup()}::1`;
export const fromIp = (ip: string, headers: Record<string, string> = {}) => ({ headers: { 'CF-Connecting-IP': ip, ...headers } });
