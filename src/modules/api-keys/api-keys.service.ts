import { and, eq, isNull, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type ApiKeyRow, apiKeys, roles } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { uncovered } from '../../lib/access';
import { listTable, type ParsedListQuery } from '../../lib/query';
import { type Principal, principalRef } from '../../lib/access';
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

/** What a key check needs of a key, read by one statement (apiKeyCheckStatement). */
export interface KeyCheckRow {
  id: string;
  roleId: string | null;
  keyPermissions: string;
  rolePermissions: string | null;
  revokedAt: string | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export type KeyLookup =
  | { status: 'valid'; record: Pick<ApiKeyRow, 'id' | 'roleId' | 'lastUsedAt'>; permissions: string[]; row: KeyCheckRow }
  | { status: 'unknown' | 'revoked' | 'expired' };

const KEY_CHECK_SQL =
  'SELECT k.id AS id, k.role_id AS roleId, k.permissions AS keyPermissions, r.permissions AS rolePermissions, ' +
  'k.revoked_at AS revokedAt, k.expires_at AS expiresAt, k.last_used_at AS lastUsedAt ' +
  'FROM api_keys k LEFT JOIN roles r ON r.id = k.role_id WHERE k.key_hash = ? LIMIT 1';

/**
 * The statement that checks a key, by its hash: plain D1 with named columns, so it can run alone or
 * ride in another statement batch (src/middleware/verified-d1.ts) and be judged by evaluateApiKey.
 */
export function apiKeyCheckStatement(d1: D1Database, keyHash: string): D1PreparedStatement {
  return d1.prepare(KEY_CHECK_SQL).bind(keyHash);
}

// Same judgement as evaluateApiKey plus "unchanged since it was read", as one statement inside a write batch.
const KEY_GUARD_SQL =
  "INSERT INTO write_guards (name, ok) SELECT 'stale_credential', EXISTS (SELECT 1 FROM api_keys k LEFT JOIN roles r ON r.id = k.role_id " +
  'WHERE k.key_hash = ? AND k.id = ? AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?) ' +
  'AND k.role_id IS ? AND k.permissions IS ? AND r.permissions IS ?)';

/**
 * A `write_guards` statement that aborts its batch with guard:stale_credential unless the key still
 * reads as `seen` (a row apiKeyCheckStatement returned): the same key, role and permissions (its
 * own and its role's), not revoked, not expired. It lets a write batch carry the key's check.
 */
export function apiKeyGuardStatement(d1: D1Database, keyHash: string, seen: KeyCheckRow, now = new Date()): D1PreparedStatement {
  return d1.prepare(KEY_GUARD_SQL).bind(keyHash, seen.id, now.toISOString(), seen.roleId, seen.keyPermissions, seen.rolePermissions);
}

/** The key the check found, with the permissions it holds now (its role's, read on every request). */
export function evaluateApiKey(rows: readonly unknown[], now = new Date()): KeyLookup {
  const row = rows[0] as KeyCheckRow | undefined;
  if (!row) return { status: 'unknown' };
  if (row.revokedAt) return { status: 'revoked' };
  if (row.expiresAt && row.expiresAt <= now.toISOString()) return { status: 'expired' };
  const own = JSON.parse(row.keyPermissions) as string[];
  const fromRole = row.rolePermissions ? (JSON.parse(row.rolePermissions) as string[]) : [];
  return { status: 'valid', record: { id: row.id, roleId: row.roleId, lastUsedAt: row.lastUsedAt }, permissions: [...fromRole, ...own], row };
}

/** Finds a key by its hash, with the permissions it holds now (its role's, read on every request). */
export async function lookupApiKey(db: Database, key: string, now = new Date()): Promise<KeyLookup> {
  const { results } = await apiKeyCheckStatement(db.$client, await hashApiKey(key)).all();
  return evaluateApiKey(results, now);
}

/** Last-used time is kept to the minute: writing it on every request would cost a D1 write each. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function lastUsedUpdate(db: Database, record: Pick<ApiKeyRow, 'id' | 'lastUsedAt'>, now = new Date()) {
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
