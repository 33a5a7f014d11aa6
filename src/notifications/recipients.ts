import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import type { Database } from '../db/client';
import { roles, storeSettings, users } from '../db/schema';

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
 * Who hears of a store matter (low stock, an endpoint switched off): every active staff user whose
 * role grants `permission` (admins hold `*`), else the store's contact email, else nobody.
 */
export async function staffRecipients(db: Database, permission: string): Promise<StaffRecipient[]> {
  const [staff, settings] = await db.batch([
    db
      .select({ id: users.id, email: users.email, phone: users.phone, permissions: roles.permissions })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(and(eq(users.status, 'active'), ne(users.roleId, 'customer'), isNull(users.vendorId)))
      .orderBy(asc(users.email)),
    db.select({ contactEmail: storeSettings.contactEmail }).from(storeSettings).where(eq(storeSettings.id, 'store')),
  ]);
  const entitled = staff.filter((s) => grants(s.permissions, permission));
  if (entitled.length > 0) return entitled.map((s) => ({ email: s.email, phone: s.phone, userId: s.id }));
  return settings[0]?.contactEmail ? [{ email: settings[0].contactEmail, phone: null, userId: null }] : [];
}
