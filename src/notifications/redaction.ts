/** What a stored message holds where a credential (a reset token) was: the notification log never has the real one. */
export const REDACTED = '[redacted]';
/** REDACTED as a URL's query string carries it (`?token=%5Bredacted%5D`). */
const REDACTED_IN_URL = encodeURIComponent(REDACTED);

/**
 * The stored text with `secret` where it says REDACTED, for the copy handed to a provider only.
 * `secret` must read the same in plain text, URLs and HTML (a base64url token does), so one
 * replacement serves the text, the link in it and its HTML-escaped form alike.
 */
export function unredact(text: string, secret: string): string {
  return text.replaceAll(REDACTED_IN_URL, secret).replaceAll(REDACTED, secret);
}

/** `text` with every occurrence of `secret` taken out again (a provider's error may echo what it was sent). */
export function redact(text: string, secret: string): string {
  return text.replaceAll(secret, REDACTED);
}

/** What REDACTED becomes in a value that is not a credential: it reads the same, but nothing is put back there. */
export const INERT = '(redacted)';

/**
 * `data` with REDACTED taken out of every value but the `credentials`' (its trigger's), for
 * rendering and storing a message. unredact puts the token back wherever the stored text says
 * REDACTED, so without this a product or account name reading `https://attacker.example/?t=[redacted]`
 * would carry the real token in the copy sent, under texts that whoever named the product controls.
 */
export function onlyCredentialsRedacted<T extends Record<string, unknown>>(data: T, credentials: readonly string[]): T {
  const inert = (value: unknown) => (typeof value === 'string' ? value.replaceAll(REDACTED_IN_URL, encodeURIComponent(INERT)).replaceAll(REDACTED, INERT) : value);
  return Object.fromEntries(Object.entries(data).map(([name, value]) => [name, credentials.includes(name) ? value : inert(value)])) as T;
}
