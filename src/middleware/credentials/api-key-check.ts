import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type ApiKeyRow, apiKeys } from '../../db/schema';
import { coverProblem, type Principal } from '../../lib/access';
import { type ApiKeyType, hashApiKey } from './api-key-format';

/**
 * Checking an API key presented as a credential, for the authentication middleware
 * (src/middleware/auth.ts, api-key-cache.ts) and for work a key started that runs later: the row
 * of the key, its role, owner and vendor, judged as valid, unknown, revoked, expired or suspended.
 * The keys themselves are managed in src/modules/api-keys/.
 */

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
  /** The version the key is pinned to (not part of what the key may do: the write guard ignores it). */
  apiVersion: string;
}

export type KeyLookup =
  | {
      status: 'valid';
      record: Pick<ApiKeyRow, 'id' | 'roleId' | 'lastUsedAt' | 'ownerId' | 'vendorId' | 'type' | 'allowedOrigins' | 'apiVersion'>;
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
  'o.status AS ownerStatus, orole.permissions AS ownerPermissions, o.vendor_id AS ownerVendorId, k.vendor_id AS vendorId, v.status AS vendorStatus, k.api_version AS apiVersion ' +
  KEY_JOINS;
const KEY_CHECK_SQL = `${KEY_CHECK_SELECT} WHERE k.key_hash = ? LIMIT 1`;
const KEY_BY_ID_SQL = `${KEY_CHECK_SELECT} WHERE k.id = ? LIMIT 1`;

/**
 * The statement that checks a key, by its hash: plain D1 with named columns, so it can run alone or
 * ride in another statement batch (src/d1/verified.ts) and be judged by evaluateApiKey.
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

/** The role whose keys act for one vendor (and must name it). */
export const VENDOR_ROLE = 'vendor';

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
  const record = {
    id: row.id,
    roleId: row.roleId,
    lastUsedAt: row.lastUsedAt,
    ownerId: row.ownerId,
    vendorId: row.vendorId,
    type: row.type,
    allowedOrigins,
    apiVersion: row.apiVersion,
  };
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
