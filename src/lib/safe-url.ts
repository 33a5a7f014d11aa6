/** http(s), mailto:, tel:, or a URL without a scheme (a path, query or fragment: no `:` before the first `/`, `?` or `#`). */
export function isSafeUrl(url: string): boolean {
  if (/^(https?:\/\/|mailto:|tel:)/i.test(url)) return true;
  const colon = url.indexOf(':');
  const delimiter = url.search(/[/?#]/);
  return colon === -1 || (delimiter !== -1 && delimiter < colon);
}
