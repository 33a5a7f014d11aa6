/**
 * IP address literals as numbers: what the webhook URL policy (src/webhooks/special-addresses.ts)
 * and the client's network (src/lib/client-network.ts) read them with.
 */

/** A dotted quad as a number, or null. */
export function ipv4Value(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => n * 256n + BigInt(p), 0n);
}

/** An IPv6 literal (without brackets or zone) as a number, or null if it is not one. */
export function ipv6Value(text: string): bigint | null {
  let body = text;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted) {
    const v4 = ipv4Value(dotted[2]!);
    if (v4 === null) return null;
    tail.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
    body = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : Number.NaN)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const known = head.length + rest.length + tail.length;
  if ([...head, ...rest].some(Number.isNaN)) return null;
  if (halves.length === 1 && known !== 8) return null;
  if (halves.length === 2 && known > 7) return null;
  const groups = [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
  return groups.reduce((n, g) => (n << 16n) + BigInt(g), 0n);
}

/** A 32-bit value as a dotted quad. */
export function ipv4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** A 128-bit value in the canonical IPv6 text (RFC 5952: lowercase, no leading zeros, the longest run of zero groups as `::`). */
export function ipv6Text(value: bigint): string {
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => Number((value >> shift) & 0xffffn));
  let best = { at: -1, length: 1 };
  for (let at = 0; at < 8; at++) {
    let length = 0;
    while (groups[at + length] === 0) length++;
    if (length > best.length) best = { at, length };
  }
  const hex = (from: number, to: number) =>
    groups
      .slice(from, to)
      .map((g) => g.toString(16))
      .join(':');
  return best.at < 0 ? hex(0, 8) : `${hex(0, best.at)}::${hex(best.at + best.length, 8)}`;
}
