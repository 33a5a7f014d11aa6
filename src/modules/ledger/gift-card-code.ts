import type { Vars } from '../../config';
import { sha256Hex } from '../../lib/crypto';
import { derivedBytes, tokenSecret } from '../../lib/derived-token';
import { CROCKFORD } from '../../lib/ids';

/**
 * A gift card's code: 16 Crockford base32 characters (80 bits) in groups of four, `7KQ2-M9XD-…`.
 * Like a password-reset token it is never stored: it is derived from the card's id with the server's
 * JWT_SECRET (src/lib/derived-token.ts), shown in the answer that issues the card and derived again
 * for the email to its recipient. The card keeps only its SHA-256 (a code this random needs no slow
 * hash, as API keys) and its last four characters, to tell cards apart.
 */
const PURPOSE = 'store-api gift-card code v1:';
const LENGTH = 16;

export const giftCardSecret = (env: Pick<Vars, 'JWT_SECRET'>): string => tokenSecret(env, 'Gift cards');

export async function giftCardCode(secret: string, cardId: string): Promise<string> {
  const bytes = new Uint8Array(await derivedBytes(secret, PURPOSE, cardId));
  const chars = Array.from(bytes.subarray(0, LENGTH), (b) => CROCKFORD[b % 32]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/**
 * The code as typed, in the one spelling that is hashed: case, spaces and dashes ignored, and the
 * letters Crockford reads as digits (O as 0, I and L as 1) read so; null when it cannot be a code.
 */
export function normalisedCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return code.length === LENGTH && [...code].every((c) => CROCKFORD.includes(c)) ? code : null;
}

export const hashGiftCardCode = (normalised: string) => sha256Hex(normalised);
export const last4Of = (normalised: string) => normalised.slice(-4);
