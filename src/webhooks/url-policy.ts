/**
 * Which URLs a webhook endpoint may have. Deliveries are POSTs the store makes on an admin's word,
 * so a URL must not turn the store into a way to reach its own network (SSRF). Only what can be
 * told from the URL itself is checked: host names that are local by definition and IP literals in
 * private, loopback, link-local, shared or multicast ranges. A public DNS name that resolves to a
 * private address is not resolved here: deployed Workers cannot reach such addresses (Cloudflare
 * refuses them), so the name would only fail at delivery time.
 */

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export interface UrlPolicyOptions {
  /** Local development and tests: plain http and private or loopback hosts are accepted. */
  allowPrivate: boolean;
}

const LOCAL_NAMES: [test: (host: string) => boolean, why: string][] = [
  [(h) => h === 'localhost' || h.endsWith('.localhost'), 'must not point at localhost'],
  [(h) => h.endsWith('.local'), 'must not point at a .local (mDNS) name'],
  [(h) => h.endsWith('.internal'), 'must not point at an .internal name'],
];

/** [first address as a 32-bit number, prefix length, what it is]. */
const IPV4_REFUSED: [base: string, bits: number, what: string][] = [
  ['0.0.0.0', 8, 'a "this network" address (0.0.0.0/8)'],
  ['10.0.0.0', 8, 'a private address (10.0.0.0/8)'],
  ['100.64.0.0', 10, 'a shared carrier-grade NAT address (100.64.0.0/10)'],
  ['127.0.0.0', 8, 'a loopback address (127.0.0.0/8)'],
  ['169.254.0.0', 16, 'a link-local address (169.254.0.0/16)'],
  ['172.16.0.0', 12, 'a private address (172.16.0.0/12)'],
  ['192.168.0.0', 16, 'a private address (192.168.0.0/16)'],
  ['224.0.0.0', 3, 'a multicast or reserved address (224.0.0.0 and above)'],
];

function ipv4Number(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function ipv4Problem(address: number): string | null {
  for (const [base, bits, what] of IPV4_REFUSED) {
    const size = 2 ** (32 - bits);
    const start = ipv4Number(base)!;
    if (address >= start && address < start + size) return what;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 literal (without brackets), or null if it is not one. */
function ipv6Groups(text: string): number[] | null {
  let body = text;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted) {
    const v4 = ipv4Number(dotted[2]!);
    if (v4 === null) return null;
    tail.push(Math.floor(v4 / 65536), v4 % 65536);
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
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
}

function ipv6Problem(groups: number[]): string | null {
  const [first] = groups as [number];
  const zeroPrefix = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroPrefix(7) && groups[7] === 1) return 'a loopback address (::1)';
  if (zeroPrefix(8)) return 'the unspecified address (::)';
  if ((first & 0xfe00) === 0xfc00) return 'a unique local address (fc00::/7)';
  if ((first & 0xffc0) === 0xfe80) return 'a link-local address (fe80::/10)';
  if ((first & 0xff00) === 0xff00) return 'a multicast address (ff00::/8)';
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible (::a.b.c.d) forms reach the IPv4 address.
  if (zeroPrefix(5) && (groups[5] === 0xffff || groups[5] === 0)) {
    const v4 = ipv4Problem(groups[6]! * 65536 + groups[7]!);
    if (v4) return `${v4}, written as IPv6`;
  }
  return null;
}

function hostProblem(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  for (const [test, why] of LOCAL_NAMES) if (test(host)) return why;
  if (host.startsWith('[') && host.endsWith(']')) {
    const groups = ipv6Groups(host.slice(1, -1));
    const what = groups && ipv6Problem(groups);
    return what ? `must not point at ${what}` : null;
  }
  // The URL parser has already turned every IPv4 spelling (2130706433, 0x7f.1, 017.0.0.1) into a dotted quad.
  const v4 = ipv4Number(host);
  const what = v4 === null ? null : ipv4Problem(v4);
  return what ? `must not point at ${what}` : null;
}

/** Why a webhook URL is refused, in words that follow the field name ("url must use https"), or null. */
export function checkWebhookUrl(raw: string, options: UrlPolicyOptions): string | null {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL, like https://example.com/webhooks';
  }
  const schemes = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return options.allowPrivate ? 'must use http or https' : 'must use https';
  if (url.username || url.password) return 'must not contain credentials (user:password@)';
  if (raw.includes('#')) return 'must not have a fragment (#...)';
  if (options.allowPrivate) return null;
  return hostProblem(url.hostname);
}
