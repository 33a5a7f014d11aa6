import type { NotificationRow } from '../db/schema';
import type { Bindings } from '../env';
import { triggerOfTemplate } from './defaults';
import { causeOf } from './planner';
import { unredact } from './redaction';
import { recoveryToken } from '../modules/carts/recovery';
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
 * What the provider gets for a stored row: the row's own texts, or, for a password-reset email or
 * a cart reminder (stored with its token redacted), the texts with the token derived again and put back. Nothing
 * here is written anywhere. A reset that cannot be rebuilt is a permanent failure, not a retry.
 * Only a template whose trigger carries a credential gets one: the templates only `*` may change.
 */
export async function outgoingMessage(env: Pick<Bindings, 'JWT_SECRET'>, row: NotificationRow): Promise<OutgoingMessage | { error: string }> {
  const stored = { subject: row.subject, body: row.body, bodyHtml: row.bodyHtml };
  if (!carriesCredential(triggerOfTemplate(row.template))) return { ...stored, secret: null };
  const resetId = resetIdOfCause(causeOf(row));
  // A cart reminder: its data names the recovery its link's token is derived from (src/modules/carts/recovery.ts).
  const recoveryId = row.eventId && typeof row.data?.recoveryId === 'string' ? row.data.recoveryId : null;
  if (!resetId && !recoveryId) return { ...stored, secret: null };
  const secret = config(env).JWT_SECRET;
  if (!secret) return { error: `${row.template}: JWT_SECRET is not set, so the ${resetId ? 'reset' : 'recovery'} link cannot be made` };
  const token = resetId ? await resetToken(secret, resetId) : await recoveryToken(secret, recoveryId!);
  return {
    subject: stored.subject === null ? null : unredact(stored.subject, token),
    body: unredact(stored.body, token),
    bodyHtml: stored.bodyHtml === null ? null : unredact(stored.bodyHtml, token),
    secret: token,
  };
}
