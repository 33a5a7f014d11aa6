/**
 * Web origins a store lets call its API from the browser (CORS): exact origins
 * (`https://shop.example`, `http://localhost:5173`) and patterns with one wildcard label in front
 * (`https://*.shop.example`, matching `https://www.shop.example` and `https://a.b.shop.example`,
 * never `https://shop.example` itself). Scheme and port must match; a missing port is the scheme's
 * default, as browsers send it.
 */

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST = `(?:${LABEL}\\.)*${LABEL}`;
const PORT = '(?::\\d{1,5})?';
const EXACT = new RegExp(`^https?://${HOST}${PORT}$`);
// The wildcard must stand over at least two labels: `https://*.com` would be every shop on .com.
const WILDCARD = new RegExp(`^https?://\\*\\.${LABEL}\\.${HOST}${PORT}$`);

export const MAX_ALLOWED_ORIGINS = 50;

/** Why `pattern` is not an origin or origin pattern, or undefined when it is one. */
export function originPatternProblem(pattern: string): string | undefined {
  if (EXACT.test(pattern) || WILDCARD.test(pattern)) return undefined;
  if (/^https?:\/\/[^/]+\/./.test(pattern) || pattern.endsWith('/')) return 'an origin has no path (not even a trailing slash): https://shop.example';
  if (pattern.includes('*')) return 'a wildcard stands only for the first label of a host with at least two more: https://*.shop.example';
  return 'must be an origin such as https://shop.example or a pattern such as https://*.shop.example';
}

/** Lower case, as browsers send an Origin. */
export const normalOrigin = (pattern: string) => pattern.trim().toLowerCase();

/** A test for origins, built once per list of patterns. */
export function originMatcher(patterns: readonly string[]): (origin: string) => boolean {
  const exact = new Set<string>();
  const wildcards: { scheme: string; suffix: string; port: string }[] = [];
  for (const raw of patterns) {
    const pattern = normalOrigin(raw);
    if (!pattern.includes('*')) {
      exact.add(pattern);
      continue;
    }
    const [, scheme, rest] = /^(https?):\/\/\*(.*)$/.exec(pattern) ?? [];
    if (!scheme || rest === undefined) continue;
    const [, suffix, port = ''] = /^([^:]*)(:\d+)?$/.exec(rest) ?? [];
    if (suffix) wildcards.push({ scheme, suffix, port });
  }
  return (origin) => {
    if (exact.has(origin)) return true;
    if (!wildcards.length) return false;
    const [, scheme, host, port = ''] = /^(https?):\/\/([^/:]+)(:\d+)?$/.exec(origin) ?? [];
    if (!scheme || !host) return false;
    return wildcards.some((w) => w.scheme === scheme && w.port === port && host.endsWith(w.suffix) && host.length > w.suffix.length);
  };
}
