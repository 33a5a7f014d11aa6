/**
 * Which URLs a webhook endpoint may have. Deliveries are POSTs the store makes on an admin's word,
 * so a URL must not turn the store into a way to reach its own network (SSRF). Only what can be
 * told from the URL itself is checked: host names that are local by definition and IP literals in
 * any special-purpose range (special-addresses.ts: private, loopback, link-local, shared, multicast,
 * documentation, every IPv6 form that embeds an IPv4 address). A public DNS name that resolves to
 * a private address is not resolved here: deployed Workers cannot reach such addresses (Cloudflare
 * refuses them), so the name would only fail at delivery time.
 */

import { specialAddress } from './special-addresses';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export interface UrlPolicyOptions {
  /** Local development and tests: plain http and private or loopback hosts are accepted. */
  allowPrivate: boolean;
}

const LOCAL_NAMES: [test: (host: string) => boolean, why: string][] = [
  [(h) => h === 'localhost' || h.endsWith('.localhost'), 'must not point at localhost'],
  [(h) => h.endsWith('.local'), 'must not point at a .local (mDNS) name'],
  [(h) => h.endsWith('.internal'), 'must not point at an .internal name'],
  [(h) => h === 'home.arpa' || h.endsWith('.home.arpa'), 'must not point at a .home.arpa (home network) name'],
];

function hostProblem(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  for (const [test, why] of LOCAL_NAMES) if (test(host)) return why;
  const what = specialAddress(host);
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
