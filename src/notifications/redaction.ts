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
