import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, roles } from '../../src/db/schema';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { db, insertVendor, uid } from '../helpers';

// Migration 0072 gives every role and key the money permission resources where it held the old,
// coarser ones, and none to vendors (docs/security.md, "Money has its own permissions").

const statements = () => env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0072_'))!.queries;
const permissionsOfRole = async (id: string) => (await db().select().from(roles).where(eq(roles.id, id)))[0]!.permissions;
const permissionsOfKey = async (id: string) => (await db().select().from(apiKeys).where(eq(apiKeys.id, id)))[0]!.permissions;

describe('migration 0072: money permissions', () => {
  it('grants each holder of products, coupons, orders and customers the matching money resource, action for action', async () => {
    const support = `support-${uid()}`;
    const catalogue = `catalogue-${uid()}`;
    const now = new Date().toISOString();
    await db()
      .insert(roles)
      .values([
        { id: support, name: support, description: null, permissions: ['orders:read', 'customers:write', 'coupons:*'], builtIn: false, createdAt: now, updatedAt: now },
        { id: catalogue, name: catalogue, description: null, permissions: ['products:write', 'price-lists:write'], builtIn: false, createdAt: now, updatedAt: now },
      ]);
    const key = (await createApiKey(db(), { name: 'old key', permissions: ['orders:*', 'products:read'] })).record;
    const vendor = await insertVendor();
    const vendorKey = (await createApiKey(db(), { name: 'vendor key', role: 'vendor', vendorId: vendor.id })).record;
    const vendorBefore = await permissionsOfRole('vendor');

    for (const statement of statements()) await env.DB.prepare(statement).run();

    expect((await permissionsOfRole(support)).sort()).toEqual(
      ['orders:read', 'customers:write', 'coupons:*', 'gift-cards:read', 'returns:read', 'store-credit:write', 'promotions:*'].sort(),
    );
    // Held already: not added twice.
    expect(await permissionsOfRole(catalogue)).toEqual(['products:write', 'price-lists:write']);
    expect((await permissionsOfKey(key.id)).sort()).toEqual(['orders:*', 'products:read', 'gift-cards:*', 'returns:*', 'price-lists:read'].sort());
    // Vendors hold products:* and orders:read, and get none of it.
    expect(await permissionsOfRole('vendor')).toEqual(vendorBefore);
    expect(vendorBefore).toEqual(expect.arrayContaining(['products:write', 'orders:read']));
    expect(await permissionsOfKey(vendorKey.id)).toEqual(vendorKey.permissions);
    // Run twice, it adds nothing more.
    for (const statement of statements()) await env.DB.prepare(statement).run();
    expect((await permissionsOfKey(key.id)).length).toBe(5);
  });
});
