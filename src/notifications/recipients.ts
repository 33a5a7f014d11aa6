import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import type { Database } from '../db/client';
import { roles, storeSettings, users } from '../db/schema';
import { normalisePhone } from '../lib/phone';

export interface StaffRecipient {
  email: string;
  phone: string | null;
  userId: string | null;
}

const grants = (held: readonly string[], permission: string) => {
  const [resource] = permission.split(':');
  return held.some((p) => p === '*' || p === permission || p === `${resource}:*`);
};

/**
 * The two reads staffRecipients needs, for a caller to put in a D1 batch of its own (the store-events
 * consumer reads them with the batch's notification contexts); `recipients` turns their results into
 * the recipients of one permission.
 */
export function staffReads(db: Database) {
  return {
    staff: db
      .select({ id: users.id, email: users.email, phone: users.phone, permissions: roles.permissions })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(and(eq(users.status, 'active'), ne(users.roleId, 'customer'), isNull(users.vendorId)))
      .orderBy(asc(users.email)),
    settings: db.select({ contactEmail: storeSettings.contactEmail }).from(storeSettings).where(eq(storeSettings.id, 'store')),
  };
}
type StaffRow = { id: string; email: string; phone: string | null; permissions: string[] };

/**
 * Who hears of a store matter (low stock, an endpoint switched off): every active staff user whose
 * role grants `permission` (admins hold `*`), else the store's contact email, else nobody.
 */
export function recipients(staff: readonly StaffRow[], settings: readonly { contactEmail: string | null }[], permission: string): StaffRecipient[] {
  const entitled = staff.filter((s) => grants(s.permissions, permission));
  if (entitled.length > 0) return entitled.map((s) => ({ email: s.email, phone: normalisePhone(s.phone), userId: s.id }));
  return settings[0]?.contactEmail ? [{ email: settings[0].contactEmail, phone: null, userId: null }] : [];
}

/** The recipients of `permission`, read in one D1 batch. */
export async function staffRecipients(db: Database, permission: string): Promise<StaffRecipient[]> {
  const reads = staffReads(db);
  const [staff, settings] = await db.batch([reads.staff, reads.settings]);
  return recipients(staff, settings, permission);
}
