/**
 * If-None-Match holds `etag` (weak comparison, RFC 9110 13.1.2), or holds `*` and `exists`: `*`
 * matches any current representation, so only once the answer is known to be one (a missing or
 * draft product has none, and is 404).
 */
export function ifNoneMatchHolds(ifNoneMatch: string | undefined, etag: string | undefined, exists: boolean): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => (tag.trim() === '*' ? exists : etag !== undefined && opaque(tag) === opaque(etag)));
}
