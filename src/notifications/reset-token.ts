import { derivedToken, tokenSecret } from '../lib/derived-token';
import type { Vars } from '../config';

/**
 * A password-reset token is never stored, not even in the message that carries it: it is derived
 * from the reset's row id with the server's JWT_SECRET. The request path hashes it for
 * `password_reset_tokens` (the only trace it leaves), and the notifications consumer derives it
 * again at send time from the cause its message records (`password_reset:<reset id>`), for the
 * provider's copy alone. Knowing a reset id is worth nothing without the secret.
 */

/** Keeps these MACs apart from the JWTs signed with the same secret (their input is `base64url.base64url`, never this). */
const PURPOSE = 'store-api password-reset token v1:';
const CAUSE_PREFIX = 'password_reset:';

/** The reset's token (src/lib/derived-token.ts). */
export const resetToken = (secret: string, resetId: string): Promise<string> => derivedToken(secret, PURPOSE, resetId);

/** The secret tokens are derived with; a store without one cannot make reset links. */
export const resetSecret = (env: Pick<Vars, 'JWT_SECRET'>): string => tokenSecret(env, 'Password reset');

/** The cause a reset's email is recorded under. */
export const resetCause = (resetId: string) => `${CAUSE_PREFIX}${resetId}`;

/** The reset id of a message's cause, or null when the cause is not a password reset. */
export const resetIdOfCause = (cause: string | null) => (cause?.startsWith(CAUSE_PREFIX) ? cause.slice(CAUSE_PREFIX.length) || null : null);
