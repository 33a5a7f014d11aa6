import { and, eq, isNull, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type ApiKeyRow, apiKeys, roles } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { uncovered } from '../../lib/permissions';
import { listTable, type ParsedListQuery } from '../../lib/query';
import { type Principal, principalRef } from '../../middleware/auth';
import { apiKeyListQuery } from './api-keys.query';
import type { ApiKey, CreateApiKeyInput } from './api-keys.schemas';
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

/** Revokes a key; revoking it again keeps the first revocation time. */
export async function revokeApiKey(db: Database, id: string, now = new Date()) {
  await db
    .update(apiKeys)
    .set({ revokedAt: now.toISOString(), updatedAt: now.toISOString() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
}

// ---------------------------------------------------------------------------------------------
// The API at /api/settings/api-keys.

export function toApiKey(row: ApiKeyRow, now = new Date()): ApiKey {
  const { keyHash: _hash, roleId, updatedAt: _updated, ...rest } = row;
  const status = row.revokedAt ? 'revoked' : row.expiresAt && row.expiresAt <= now.toISOString() ? 'expired' : 'active';
  return { ...rest, role: roleId, status };
}

export async function listApiKeys(db: Database, query: ParsedListQuery<typeof apiKeyListQuery.filters>) {
  const { items, total } = await listTable<ApiKeyRow, typeof apiKeyListQuery.filters>(db, apiKeys, apiKeyListQuery, query);
  return { items: items.map((row) => toApiKey(row)), total };
}

export async function getApiKey(db: Database, id: string): Promise<ApiKey> {
  const row = await db.query.apiKeys.findFirst({ where: eq(apiKeys.id, id) });
  if (!row) throw ApiError.notFound('API key', id);
  return toApiKey(row);
}


/**
 * Mints a key for `actor`: the role must exist (422), and the actor must itself hold every
 * permission the key would (403), so no credential can mint a stronger one.
 */
export async function createApiKeyFor(db: Database, actor: Principal, input: CreateApiKeyInput, now = new Date()) {
  let permissions = input.permissions ?? [];
  let roleId: string | null = null;
  if (input.role !== undefined) {
    const [role] = await db.select().from(roles).where(or(eq(roles.id, input.role), eq(roles.name, input.role))).limit(1);
    if (!role) throw ApiError.validation([{ field: 'role', message: `no role '${input.role}'` }]);
    roleId = role.id;
    permissions = role.permissions;
  }
  const missing = uncovered(actor.kind === 'anonymous' ? [] : actor.permissions, permissions);
  if (missing.length) throw ApiError.forbidden(`A credential cannot mint a key with permissions it does not hold: ${missing.join(', ')}`);
  const { key, record } = await createApiKey(
    db,
    { name: input.name, role: roleId, permissions: roleId ? [] : permissions, expiresAt: input.expiresAt ?? null, createdBy: principalRef(actor) },
    now,
  );
  return { key, apiKey: toApiKey(record, now) };
}

/** 404 for an unknown key; revoking a revoked key succeeds and keeps the first revocation. */
export async function revokeApiKeyById(db: Database, id: string, now = new Date()): Promise<void> {
  await getApiKey(db, id);
  await revokeApiKey(db, id, now);
}
