// Types for webhooks.js (plain JavaScript so that Node scripts, receivers copying it and the Worker's
// tests can all import it without a build step; the projects keep allowJs off and declare it here).

/** The raw request body, exactly as received: a string, a Uint8Array (a Node Buffer is one) or an ArrayBuffer. */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/**
 * Request headers: a `Headers` object (anything with `get(name)`), or a plain object such as Node's
 * `IncomingHttpHeaders`, looked up case-insensitively.
 */
export type WebhookHeaders = { get(name: string): string | null | undefined } | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface WebhookVerification {
  valid: boolean;
  /**
   * Why it is not valid: `"missing X-Store-Signature header"`,
   * `"malformed signature (expected 64 hex characters)"` or `"invalid signature"` (no secret matches).
   */
  reason?: string;
  /** `X-Store-Delivery` (else `webhook-id`): the same on every retry of a delivery, so deduplicate on it. */
  deliveryId: string | undefined;
  /** `X-Store-Event` (else, when valid, the body's `event`). */
  event: string | undefined;
}

/** Standard Webhooks' default tolerance for `webhook-timestamp`: 300 seconds. */
export declare const DEFAULT_TOLERANCE_SECONDS: number;

/** Constant-time equality of two byte arrays (no early exit; different lengths are unequal at once). */
export declare function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;

/** A header's value, case-insensitively, from a Headers object or a plain object; repeated values joined with ", ". */
export declare function getHeader(headers: WebhookHeaders, name: string): string | undefined;

/**
 * Checks one `X-Store-Signature` value: lowercase hex HMAC-SHA256 of the exact body bytes keyed with
 * the whole secret string as UTF-8. False for a missing, truncated or non-hex signature or a mismatch.
 * Throws a TypeError only when `secret` is not a non-empty string.
 */
export declare function verifyStoreSignature(input: { body: WebhookBody; signature: string | null | undefined; secret: string }): Promise<boolean>;

/**
 * Checks the Standard Webhooks headers: `webhook-timestamp` (Unix seconds) within `toleranceSeconds`
 * (default 300) of `now` (a Date or epoch milliseconds; default the current time), and any `v1,`
 * entry of `webhook-signature` matching HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`
 * keyed with the base64-decoded secret after `whsec_`. Throws a TypeError when the secret is not base64.
 */
export declare function verifyStandardWebhook(input: {
  body: WebhookBody;
  headers: WebhookHeaders;
  secret: string;
  toleranceSeconds?: number;
  now?: Date | number;
}): Promise<boolean>;

/**
 * Verifies a delivery: `X-Store-Signature` or `X-Store-Signature-Previous` must match one of the
 * secrets (pass the old and the new one while rotating). Give `secret`, `secrets`, or both.
 */
export declare function verifyWebhook(input: { body: WebhookBody; headers: WebhookHeaders; secret?: string; secrets?: readonly string[] }): Promise<WebhookVerification>;
