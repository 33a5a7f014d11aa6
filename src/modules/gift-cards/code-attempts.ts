import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type GiftCardRow, giftCards } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { countAttempt, lockedOut, uncountAttemptStatement } from '../auth/login-lockout';
import { hashGiftCardCode, normalisedCode } from './gift-card-code';

/**
 * Codes are guessed like passwords, so they are locked out like sign-in (src/modules/auth/login-lockout.ts,
 * whose counters this shares under the subject `gift-card:<network>`): every attempt is counted before
 * its code is looked up, 5 wrong codes from one client network in 15 minutes lock that network's
 * gift-card attempts for 15 minutes (429 with Retry-After), the right code included. A right code
 * takes its own count back but never clears the wrong ones before it.
 */
const subject = (network: string) => `gift-card:${network}`;
const LOCKED = 'Too many wrong gift card codes from this network';

export async function cardByCode(db: Database, code: string, network: string, now = new Date()): Promise<GiftCardRow> {
  const attempt = await countAttempt(db, subject(network), network, now);
  if (!attempt.allowed) throw lockedOut(attempt.lock, now, LOCKED);
  const normalised = normalisedCode(code);
  const card = normalised ? await db.query.giftCards.findFirst({ where: eq(giftCards.codeHash, await hashGiftCardCode(normalised)) }) : undefined;
  if (!card) {
    if (attempt.lock) throw lockedOut(attempt.lock, now, LOCKED);
    throw ApiError.validation([{ field: 'code', problem: 'no gift card has this code', code: 'not_found' }]);
  }
  await uncountAttemptStatement(db, subject(network), network);
  return card;
}

/** Why `card` cannot pay in `currency` now (disabled, expired, another currency, nothing left), or null when it can. */
export function unusableBecause(card: GiftCardRow, currency: string, now = new Date()): string | null {
  if (card.status !== 'active') return 'this gift card is disabled';
  if (card.expiresAt && card.expiresAt <= now.toISOString()) return 'this gift card has expired';
  if (card.currency !== currency) return `this gift card is in ${card.currency}, not ${currency}`;
  if (card.balance <= 0) return 'nothing is left on this gift card';
  return null;
}

/** 409 naming `code` when the card cannot pay in `currency` now. */
export function assertUsable(card: GiftCardRow, currency: string, now = new Date()): void {
  const why = unusableBecause(card, currency, now);
  if (why) throw ApiError.conflict(`Gift card ending ${card.last4}: ${why}`, 'code');
}
