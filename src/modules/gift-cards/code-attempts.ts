import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type GiftCardRow, giftCards } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { activeLock, countAttempt, lockedOut, locksStatement } from '../../middleware/credentials/login-lockout';
import { hashGiftCardCode, normalisedCode } from '../ledger';

/**
 * Codes are guessed like passwords, so wrong ones are locked out like sign-in
 * (src/middleware/credentials/login-lockout.ts, whose counters this shares under the subject
 * `gift-card:<network>`): 5 wrong codes from one client network in 15 minutes lock that network's
 * gift-card attempts for 15 minutes (429 with Retry-After), the right code included.
 *
 * Only wrong codes count. The code is looked up in one batch with the network's locks: a right code
 * passes unless a lock holds, and leaves the counter as it is. A wrong one is then counted in a
 * transaction of its own (countAttempt) and answered as wrong only within the limit; the one that
 * reaches it sets the lock. So however many codes are sent at once, at most 5 wrong ones a window
 * are answered as wrong and every answer after the lock is 429, as when every attempt counted: each
 * answer follows its own count, or its read of the locks, in the database's one order of writes.
 * A right code does not reset the counter either: a guesser holding one real card could otherwise
 * clear its wrong guesses between them. Twenty shoppers behind one address redeeming their cards at
 * once therefore lock nobody out.
 */
const subject = (network: string) => `gift-card:${network}`;
const LOCKED = 'Too many wrong gift card codes from this network';

export async function cardByCode(db: Database, code: string, network: string, now = new Date()): Promise<GiftCardRow> {
  const normalised = normalisedCode(code);
  if (normalised) {
    const [[card], locks] = await db.batch([
      db
        .select()
        .from(giftCards)
        .where(eq(giftCards.codeHash, await hashGiftCardCode(normalised)))
        .limit(1),
      locksStatement(db, subject(network), network),
    ]);
    if (card) {
      const lock = activeLock(locks, now);
      if (lock) throw lockedOut(lock, now, LOCKED);
      return card;
    }
  }
  const attempt = await countAttempt(db, subject(network), network, now);
  if (!attempt.allowed) throw lockedOut(attempt.lock, now, LOCKED);
  if (attempt.lock) throw lockedOut(attempt.lock, now, LOCKED);
  throw ApiError.validation([{ field: 'code', problem: 'no gift card has this code', code: 'not_found' }]);
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
