import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type ApiKeyRow, apiKeys, roles } from '../../db/schema';
import { ID_PREFIX, newId } from '../../lib/ids';
import { apiKeyPrefix, hashApiKey, mintApiKey } from './api-key-format';

export interface NewApiKey {
  name: string;
  /** Role id whose permissions the key holds; null or absent for a key with its own permissions. */
  role?: string | null;
  permissions?: string[];
  expiresAt?: string | null;
  createdBy?: string | null;
}

/** Creates a key and returns it in clear text: the only time anyone sees it. */
export async function createApiKey(db: Database, input: NewApiKey, now = new Date()): Promise<{ key: string; record: ApiKeyRow }> {
  const key = mintApiKey();
  const [record] = await db
    .insert(apiKeys)
    .values({
      id: newId(ID_PREFIX.apiKey, now.getTime()),
      name: input.name,
      prefix: apiKeyPrefix(key),
      keyHash: await hashApiKey(key),
      roleId: input.role ?? null,
      permissions: input.permissions ?? [],
      createdBy: input.createdBy ?? null,
      expiresAt: input.expiresAt ?? null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .returning();
  return { key, record: record! };
}

export type KeyLookup =
  | { status: 'valid'; record: ApiKeyRow; permissions: string[] }
  | { status: 'unknown' | 'revoked' | 'expired' };

/** Finds a key by its hash, with the permissions it holds now (its role's, read on every request). */
export async function lookupApiKey(db: Database, key: string, now = new Date()): Promise<KeyLookup> {
  const [found] = await db
    .select({ record: apiKeys, rolePermissions: roles.permissions })
    .from(apiKeys)
    .leftJoin(roles, eq(roles.id, apiKeys.roleId))
    .where(eq(apiKeys.keyHash, await hashApiKey(key)))
    .limit(1);
  if (!found) return { status: 'unknown' };
  const { record, rolePermissions } = found;
  if (record.revokedAt) return { status: 'revoked' };
  if (record.expiresAt && record.expiresAt <= now.toISOString()) return { status: 'expired' };
  return { status: 'valid', record, permissions: [...(rolePermissions ?? []), ...record.permissions] };
}

/** Last-used time is kept to the minute: writing it on every request would cost a D1 write each. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function lastUsedUpdate(db: Database, record: ApiKeyRow, now = new Date()) {
  if (record.lastUsedAt && now.getTime() - Date.parse(record.lastUsedAt) < LAST_USED_RESOLUTION_MS) return undefined;
  return db.update(apiKeys).set({ lastUsedAt: now.toISOString() }).where(eq(apiKeys.id, record.id));
}

export async function revokeApiKey(db: Database, id: string, now = new Date()) {
  await db.update(apiKeys).set({ revokedAt: now.toISOString(), updatedAt: now.toISOString() }).where(eq(apiKeys.id, id));
}
