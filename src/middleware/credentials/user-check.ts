import type { Principal } from '../../lib/access';
import { ApiError } from '../../lib/errors';

/**
 * Checking a user as the credential of a request (a JWT, an admin-panel session) or of work it
 * started that runs later: the user's row, its role's permissions and its vendor's status, judged
 * as the principal it acts as now or the refusal it gets. Plain D1 with named columns, like the
 * API key's check (src/middleware/credentials/api-key-check.ts), so it can run alone or ride in a request's first
 * batch (src/d1/verified.ts, src/middleware/credentials/user-token-cache.ts).
 */

export interface UserCheckRow {
  id: string;
  email: string;
  status: string;
  tokenVersion: number;
  roleId: string;
  /** JSON text: the role's permissions. */
  permissions: string;
  vendorId: string | null;
  vendorStatus: string | null;
}

export type UserLookup =
  | { status: 'valid'; principal: Extract<Principal, { kind: 'user' }>; row: UserCheckRow }
  /** No such user, or (for a token) not its current token version. */
  | { status: 'unknown' }
  | { status: 'refused'; error: ApiError };

const USER_JOINS = 'FROM users u JOIN roles r ON r.id = u.role_id LEFT JOIN vendors v ON v.id = u.vendor_id';
const USER_CHECK_SQL =
  'SELECT u.id AS id, u.email AS email, u.status AS status, u.token_version AS tokenVersion, u.role_id AS roleId, ' +
  `r.permissions AS permissions, u.vendor_id AS vendorId, v.status AS vendorStatus ${USER_JOINS} WHERE u.id = ? LIMIT 1`;

export function userCheckStatement(d1: D1Database, userId: string): D1PreparedStatement {
  return d1.prepare(USER_CHECK_SQL).bind(userId);
}

// "Reads as it was seen", as one statement inside a write batch: every column evaluateUser judges.
const USER_GUARD_SQL =
  "INSERT INTO write_guards (name, ok) SELECT 'stale_credential', EXISTS (SELECT 1 " +
  `${USER_JOINS} WHERE u.id = ? AND u.token_version = ? AND u.email IS ? AND u.status IS ? AND u.role_id IS ? ` +
  'AND r.permissions IS ? AND u.vendor_id IS ? AND v.status IS ?)';

/**
 * A `write_guards` statement that aborts its batch with guard:stale_credential unless the user
 * still reads as `seen`: same token version, email, status, role and permissions, vendor and
 * vendor status. It lets a write batch carry a cached user's check.
 */
export function userGuardStatement(d1: D1Database, seen: UserCheckRow): D1PreparedStatement {
  return d1.prepare(USER_GUARD_SQL).bind(seen.id, seen.tokenVersion, seen.email, seen.status, seen.roleId, seen.permissions, seen.vendorId, seen.vendorStatus);
}

/**
 * The principal a user acts as now, or why it cannot act: unknown, or a token of an older version
 * (`tokenVersion` given: a password change, an email change or disabling retires older tokens), a
 * disabled account, a suspended vendor (its users keep their accounts but can do nothing until it
 * is reinstated).
 */
export function evaluateUser(rows: readonly unknown[], tokenVersion?: number): UserLookup {
  const row = rows[0] as UserCheckRow | undefined;
  const refused = (error: ApiError): UserLookup => ({ status: 'refused', error });
  if (!row || (tokenVersion !== undefined && row.tokenVersion !== tokenVersion)) return { status: 'unknown' };
  if (row.status !== 'active') return refused(ApiError.unauthenticated('This account is disabled'));
  if (row.vendorStatus === 'suspended') return refused(ApiError.forbidden('The vendor of this account is suspended'));
  const permissions = JSON.parse(row.permissions) as string[];
  return { status: 'valid', principal: { kind: 'user', id: row.id, role: row.roleId, permissions, vendorId: row.vendorId, email: row.email }, row };
}
