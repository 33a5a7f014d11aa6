import { and, eq, isNull, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type ApiKeyRow, apiKeys, roles, vendors } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { listTable, type ParsedListQuery } from '../../lib/query';
import { assertCovers, type Principal, principalRef } from '../../lib/access';
import { apiKeyListQuery } from './api-keys.query';
import type { ApiKey, CreateApiKeyInput, UpdateApiKeyInput } from './api-keys.schemas';
import { readEdgeSettings } from '../settings';
import { apiKeyPrefix, type ApiKeyType, hashApiKey, mintApiKey } from '../../middleware/credentials/api-key-format';
import { VENDOR_ROLE } from '../../middleware/credentials/api-key-check';
import { forgetKey } from '../../middleware/credentials/api-key-cache';
import { forgetPublishableKey } from '../../middleware/credentials/publishable-keys-kept';

export interface NewApiKey {
  name: string;
  /** Role id whose permissions the key holds; null or absent for a key with its own permissions. */
  role?: string | null;
  permissions?: string[];
  expiresAt?: string | null;
  createdBy?: string | null;
  /** The user on whose authority the key exists (see the api_keys table); null for CLI and bootstrap keys. */
  ownerId?: string | null;
  /** Required for the vendor role: the vendor the key acts for. */
  vendorId?: string | null;
  /** `publishable` mints a `pk_` key: a shopper's abilities only, from `allowedOrigins` only. */
  type?: ApiKeyType;
  allowedOrigins?: string[];
  /** The API version its requests answer in when they name none; the column's default (the published contract) when absent. */
  apiVersion?: string;
}

/** Creates a key and returns it in clear text: the only time anyone sees it. */
export async function createApiKey(db: Database, input: NewApiKey, now = new Date()): Promise<{ key: string; record: ApiKeyRow }> {
  const type = input.type ?? 'secret';
  const key = mintApiKey(type);
  const [record] = await db
    .insert(apiKeys)
    .values({
      id: newId(ID_PREFIX.apiKey, now.getTime()),
      name: input.name,
      type,
      allowedOrigins: input.allowedOrigins ?? [],
      prefix: apiKeyPrefix(key),
      keyHash: await hashApiKey(key),
      roleId: input.role ?? null,
      permissions: input.permissions ?? [],
      createdBy: input.createdBy ?? null,
      ownerId: input.ownerId ?? null,
      vendorId: input.vendorId ?? null,
      expiresAt: input.expiresAt ?? null,
      ...(input.apiVersion ? { apiVersion: input.apiVersion } : {}),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .returning();
  return { key, record: record! };
}

/** What a key check needs of a key, its owner and its vendor, read by one statement (apiKeyCheckStatement). */
/** Revokes a key; revoking it again keeps the first revocation time. */
export async function revokeApiKey(db: Database, id: string, now = new Date()) {
  forgetPublishableKey(id);
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

/** The owner of a key minted by `actor`: the user, or the owner of the minting key (null for an ownerless one). */
const ownerFor = (actor: Principal): string | null => (actor.kind === 'user' ? actor.id : actor.kind === 'api_key' ? actor.ownerId : null);

/**
 * Mints a key for `actor`: the role (and, for the vendor role, the vendor) must exist (422), and
 * the actor must cover the key it mints (the grant rule, 403), so no credential can mint a stronger
 * one. The key belongs to the actor's owner (ownerFor).
 */
export async function createApiKeyFor(db: Database, actor: Principal, input: CreateApiKeyInput, now = new Date()) {
  const apiVersion = input.apiVersion ?? (await readEdgeSettings(db)).apiVersion;
  if (input.type === 'publishable') {
    // A shopper's abilities: no permissions and no vendor, which the grant rule lets any minter
    // but one acting for a single vendor give.
    assertCovers(actor, { permissions: [], vendorId: null }, 'mint this key');
    const { key, record } = await createApiKey(
      db,
      {
        name: input.name,
        type: 'publishable',
        allowedOrigins: input.allowedOrigins,
        expiresAt: input.expiresAt ?? null,
        createdBy: principalRef(actor),
        ownerId: ownerFor(actor),
        apiVersion,
      },
      now,
    );
    return { key, apiKey: toApiKey(record, now) };
  }
  let permissions = input.permissions ?? [];
  let roleId: string | null = null;
  const vendorId = input.vendorId ?? null;
  if (input.role !== undefined) {
    const [[role], [vendor]] = await db.batch([
      db
        .select()
        .from(roles)
        .where(or(eq(roles.id, input.role), eq(roles.name, input.role)))
        .limit(1),
      db
        .select({ id: vendors.id })
        .from(vendors)
        .where(eq(vendors.id, vendorId ?? ''))
        .limit(1),
    ]);
    if (!role) throw ApiError.validation([{ field: 'role', problem: `no role '${input.role}'`, code: 'not_found' }]);
    if (role.id === VENDOR_ROLE && !vendorId) throw ApiError.validation([{ field: 'vendorId', problem: 'is required for role vendor', code: 'required' }]);
    if (role.id === VENDOR_ROLE && !vendor) throw ApiError.validation([{ field: 'vendorId', problem: `no vendor '${vendorId}'`, code: 'not_found' }]);
    roleId = role.id;
    permissions = role.permissions;
  }
  if (vendorId !== null && roleId !== VENDOR_ROLE) throw ApiError.validation([{ field: 'vendorId', problem: 'is only for keys of the vendor role' }]);
  assertCovers(actor, { permissions, vendorId }, 'mint this key');
  const { key, record } = await createApiKey(
    db,
    {
      name: input.name,
      role: roleId,
      permissions: roleId ? [] : permissions,
      expiresAt: input.expiresAt ?? null,
      createdBy: principalRef(actor),
      ownerId: ownerFor(actor),
      vendorId,
      apiVersion,
    },
    now,
  );
  return { key, apiKey: toApiKey(record, now) };
}

/** What a key grants, for the grant rule: its role's permissions (read now) or its own, and its vendor. */
async function keyGrantee(db: Database, id: string) {
  const [found] = await db
    .select({ key: apiKeys, rolePermissions: roles.permissions })
    .from(apiKeys)
    .leftJoin(roles, eq(roles.id, apiKeys.roleId))
    .where(eq(apiKeys.id, id))
    .limit(1);
  if (!found) throw ApiError.notFound('API key', id);
  return { permissions: found.rolePermissions ?? found.key.permissions, vendorId: found.key.vendorId };
}

/**
 * Revoking is removing a credential, so the grant rule applies: a caller revokes only keys it covers.
 * 404 for an unknown key; revoking a revoked key succeeds and keeps the first revocation.
 */
export async function revokeApiKeyById(db: Database, actor: Principal, id: string, now = new Date()): Promise<void> {
  assertCovers(actor, await keyGrantee(db, id), 'revoke this key');
  await revokeApiKey(db, id, now);
}

/**
 * Renames a key or pins it to another API version, for a caller that covers it (the grant rule, as
 * for revoking). This isolate forgets the key at once; others answer in the new version within the
 * minute they keep a confirmed key (src/middleware/credentials/credential-cache.ts).
 */
export async function updateApiKey(db: Database, actor: Principal, id: string, patch: UpdateApiKeyInput, now = new Date()): Promise<ApiKey> {
  assertCovers(actor, await keyGrantee(db, id), 'change this key');
  const [row] = await db
    .update(apiKeys)
    .set({ ...patch, updatedAt: now.toISOString() })
    .where(eq(apiKeys.id, id))
    .returning();
  if (!row) throw ApiError.notFound('API key', id);
  forgetKey(row.keyHash);
  forgetPublishableKey(id);
  return toApiKey(row, now);
}
