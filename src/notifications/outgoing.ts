import type { NotificationRow } from '../db/schema';
import type { Bindings } from '../env';
import { triggerOfTemplate } from './defaults';
import { causeOf } from './planner';
import { unredact } from './redaction';
import { recoveryToken } from '../modules/carts';
import { giftCardCode } from '../modules/ledger';
import { resetIdOfCause, resetToken } from './reset-token';
import { carriesCredential } from './triggers';
import { config } from '../config';

/** A message as its provider gets it; `secret` is what it holds that the stored row does not. */
export interface OutgoingMessage {
  subject: string | null;
  body: string;
  bodyHtml: string | null;
  secret: string | null;
}

/**
 * Where a message's credential comes from: the secret-keyed derivation and what it is derived
 * from, named by the stored row (a password reset's cause; a cart reminder's recovery and a gift
 * card's id, kept in its data). Null when the row names none.
 */
function credentialSource(row: NotificationRow): { what: string; derive: (secret: string) => Promise<string> } | null {
  const resetId = resetIdOfCause(causeOf(row));
  if (resetId) return { what: 'reset link', derive: (secret) => resetToken(secret, resetId) };
  const named = (name: string) => (row.eventId && typeof row.data?.[name] === 'string' ? (row.data[name] as string) : null);
  const recoveryId = named('recoveryId');
  if (recoveryId) return { what: 'recovery link', derive: (secret) => recoveryToken(secret, recoveryId) };
  const giftCardId = triggerOfTemplate(row.template) === 'gift_card.issued' ? named('giftCardId') : null;
  if (giftCardId) return { what: 'gift card code', derive: (secret) => giftCardCode(secret, giftCardId) };
  return null;
}

/**
 * What the provider gets for a stored row: the row's own texts, or, for a password-reset email, a
 * cart reminder or a gift card (stored with its credential redacted), the texts with the credential
 * derived again and put back. Nothing here is written anywhere. One that cannot be rebuilt is a
 * permanent failure, not a retry. Only a template whose trigger carries a credential gets one: the
 * templates only `*` may change.
 */
export async function outgoingMessage(env: Pick<Bindings, 'JWT_SECRET'>, row: NotificationRow): Promise<OutgoingMessage | { error: string }> {
  const stored = { subject: row.subject, body: row.body, bodyHtml: row.bodyHtml };
  if (!carriesCredential(triggerOfTemplate(row.template))) return { ...stored, secret: null };
  const source = credentialSource(row);
  if (!source) return { ...stored, secret: null };
  const secret = config(env).JWT_SECRET;
  if (!secret) return { error: `${row.template}: JWT_SECRET is not set, so the ${source.what} cannot be made` };
  const token = await source.derive(secret);
  return {
    subject: stored.subject === null ? null : unredact(stored.subject, token),
    body: unredact(stored.body, token),
    bodyHtml: stored.bodyHtml === null ? null : unredact(stored.bodyHtml, token),
    secret: token,
  };
}
