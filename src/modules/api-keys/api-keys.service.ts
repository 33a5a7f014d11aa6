import { and, eq, isNull, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type ApiKeyRow, apiKeys, roles, vendors } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { listTable, type ParsedListQuery } from '../../lib/query';
import { assertCovers, coverProblem, type Principal, principalRef } from '../../lib/access';
import { apiKeyListQuery } from './api-keys.query';
import type { ApiKey, CreateApiKeyInput } from './api-keys.schemas';
import { apiKeyPrefix, type ApiKeyType, hashApiKey, mintApiKey } from './api-key-format';
import { forgetPublishableKey } from './publishable-keys-kept';

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
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .returning();
  return { key, record: record! };
}

/** What a key check needs of a key, its owner and its vendor, read by one statement (apiKeyCheckStatement). */
export interface KeyCheckRow {
  id: string;
  type: ApiKeyType;
  /** JSON text: a publishable key's origins. */
  allowedOrigins: string;
  roleId: string | null;
  keyPermissions: string;
  rolePermissions: string | null;
  revokedAt: string | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
  ownerId: string | null;
  /** The owner's status and role permissions; null when the key has no owner or the owner is gone. */
  ownerStatus: string | null;
  ownerPermissions: string | null;
  ownerVendorId: string | null;
  vendorId: string | null;
  vendorStatus: string | null;
}

export type KeyLookup =
  | {
      status: 'valid';
      record: Pick<ApiKeyRow, 'id' | 'roleId' | 'lastUsedAt' | 'ownerId' | 'vendorId' | 'type' | 'allowedOrigins'>;
      permissions: string[];
      row: KeyCheckRow;
    }
  | { status: 'unknown' | 'revoked' | 'expired' }
  /** Usable again once the reason passes (the owner re-enabled or given back the permissions, the vendor reinstated). */
  | { status: 'suspended'; reason: string };

const KEY_JOINS =
  'FROM api_keys k LEFT JOIN roles r ON r.id = k.role_id LEFT JOIN users o ON o.id = k.owner_id ' +
  'LEFT JOIN roles orole ON orole.id = o.role_id LEFT JOIN vendors v ON v.id = k.vendor_id';

const KEY_CHECK_SELECT =
  'SELECT k.id AS id, k.type AS type, k.allowed_origins AS allowedOrigins, k.role_id AS roleId, k.permissions AS keyPermissions, r.permissions AS rolePermissions, ' +
  'k.revoked_at AS revokedAt, k.expires_at AS expiresAt, k.last_used_at AS lastUsedAt, k.owner_id AS ownerId, ' +
  'o.status AS ownerStatus, orole.permissions AS ownerPermissions, o.vendor_id AS ownerVendorId, k.vendor_id AS vendorId, v.status AS vendorStatus ' +
  KEY_JOINS;
const KEY_CHECK_SQL = `${KEY_CHECK_SELECT} WHERE k.key_hash = ? LIMIT 1`;
const KEY_BY_ID_SQL = `${KEY_CHECK_SELECT} WHERE k.id = ? LIMIT 1`;

/**
 * The statement that checks a key, by its hash: plain D1 with named columns, so it can run alone or
 * ride in another statement batch (src/middleware/verified-d1.ts) and be judged by evaluateApiKey.
 */
export function apiKeyCheckStatement(d1: D1Database, keyHash: string): D1PreparedStatement {
  return d1.prepare(KEY_CHECK_SQL).bind(keyHash);
}

/** The same check of a key named by its id, for work a key started that runs later (an import's queue). */
export function apiKeyByIdStatement(d1: D1Database, id: string): D1PreparedStatement {
  return d1.prepare(KEY_BY_ID_SQL).bind(id);
}

// "Reads as it was seen", as one statement inside a write batch: every column evaluateApiKey judges.
const KEY_GUARD_SQL =
  "INSERT INTO write_guards (name, ok) SELECT 'stale_credential', EXISTS (SELECT 1 " +
  `${KEY_JOINS} WHERE k.key_hash = ? AND k.id = ? AND k.type IS ? AND k.allowed_origins IS ? AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?) ` +
  'AND k.role_id IS ? AND k.permissions IS ? AND r.permissions IS ? AND k.owner_id IS ? AND o.status IS ? AND orole.permissions IS ? ' +
  'AND o.vendor_id IS ? AND k.vendor_id IS ? AND v.status IS ?)';

/**
 * A `write_guards` statement that aborts its batch with guard:stale_credential unless the key still
 * reads as `seen` (a row apiKeyCheckStatement returned): the same key, role and permissions (its
 * own and its role's), owner and vendor as they were, not revoked, not expired. It lets a write
 * batch carry the key's check.
 */
export function apiKeyGuardStatement(d1: D1Database, keyHash: string, seen: KeyCheckRow, now = new Date()): D1PreparedStatement {
  return d1
    .prepare(KEY_GUARD_SQL)
    .bind(
      keyHash,
      seen.id,
      seen.type,
      seen.allowedOrigins,
      now.toISOString(),
      seen.roleId,
      seen.keyPermissions,
      seen.rolePermissions,
      seen.ownerId,
      seen.ownerStatus,
      seen.ownerPermissions,
      seen.ownerVendorId,
      seen.vendorId,
      seen.vendorStatus,
    );
}

const VENDOR_ROLE = 'vendor';

/** Why a key that is neither revoked nor expired cannot act now, judged against its owner and vendor. */
function suspension(row: KeyCheckRow, permissions: string[]): string | undefined {
  if (row.roleId === VENDOR_ROLE && !row.vendorId) return 'a key of the vendor role must name its vendor; mint a new one';
  if (row.vendorStatus === 'suspended') return 'its vendor is suspended';
  if (row.ownerId === null) return undefined;
  if (row.ownerStatus === null) return "its owner's account no longer exists";
  if (row.ownerStatus !== 'active') return "its owner's account is disabled";
  const owner: Principal = { kind: 'user', id: row.ownerId, role: '', permissions: JSON.parse(row.ownerPermissions ?? '[]') as string[], vendorId: row.ownerVendorId };
  const problem = coverProblem(owner, { permissions, vendorId: row.vendorId });
  return problem && `its owner no longer covers it (${problem.replace(/^it /, 'the owner ')})`;
}

/** The key the check found, with the permissions it holds now (its role's, read on every request). */
export function evaluateApiKey(rows: readonly unknown[], now = new Date()): KeyLookup {
  const row = rows[0] as KeyCheckRow | undefined;
  if (!row) return { status: 'unknown' };
  if (row.revokedAt) return { status: 'revoked' };
  if (row.expiresAt && row.expiresAt <= now.toISOString()) return { status: 'expired' };
  const own = JSON.parse(row.keyPermissions) as string[];
  const fromRole = row.rolePermissions ? (JSON.parse(row.rolePermissions) as string[]) : [];
  const permissions = [...fromRole, ...own];
  const reason = suspension(row, permissions);
  if (reason) return { status: 'suspended', reason };
  const allowedOrigins = JSON.parse(row.allowedOrigins) as string[];
  const record = { id: row.id, roleId: row.roleId, lastUsedAt: row.lastUsedAt, ownerId: row.ownerId, vendorId: row.vendorId, type: row.type, allowedOrigins };
  return { status: 'valid', record, permissions, row };
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
      db.select().from(roles).where(or(eq(roles.id, input.role), eq(roles.name, input.role))).limit(1),
      db.select({ id: vendors.id }).from(vendors).where(eq(vendors.id, vendorId ?? '')).limit(1),
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
