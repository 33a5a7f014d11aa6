import { and, count, eq, inArray, notExists, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { apiKeys, roles, users } from '../../db/schema';
import { assertCovers, ownRole, type Principal } from '../../lib/access';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { listTable, type ParsedListQuery } from '../../lib/query';
import { roleListQuery } from './roles.query';
import type { CreateRoleInput, Role, UpdateRoleInput } from './roles.schemas';

const UNIQUE_FIELDS = { 'roles.name': 'name' };

/** How many users hold each of these roles: one grouped count over the users (role, created) index. */
export async function countRoleHolders(db: Database, roleIds: string[]): Promise<Map<string, number>> {
  if (roleIds.length === 0) return new Map();
  const rows = await db.select({ roleId: users.roleId, n: count() }).from(users).where(inArray(users.roleId, roleIds)).groupBy(users.roleId);
  return new Map(rows.map((r) => [r.roleId, r.n]));
}

export function listRoles(db: Database, query: ParsedListQuery<typeof roleListQuery.filters>) {
  return listTable<Role, typeof roleListQuery.filters>(db, roles, roleListQuery, query);
}

export async function findRole(db: Database, idOrName: string): Promise<Role | undefined> {
  const [row] = await db
    .select()
    .from(roles)
    .where(or(eq(roles.id, idOrName), eq(roles.name, idOrName)))
    .limit(1);
  return row;
}

/** A role by id or by name (built-in roles have their name as id), or 404. */
export async function getRole(db: Database, idOrName: string): Promise<Role> {
  const role = await findRole(db, idOrName);
  if (!role) throw ApiError.notFound('Role', idOrName);
  return role;
}

export async function createRole(db: Database, actor: Principal, input: CreateRoleInput, now = new Date()): Promise<Role> {
  assertCovers(actor, { permissions: input.permissions }, 'create a role with these permissions');
  const ts = now.toISOString();
  const row: Role = {
    id: newId(ID_PREFIX.role, now.getTime()),
    name: input.name,
    description: input.description ?? null,
    permissions: input.permissions,
    builtIn: false,
    createdAt: ts,
    updatedAt: ts,
  };
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.insert(roles).values(row));
  return row;
}

/** Built-in roles keep their name and permissions: code and migrations rely on both. */
function refuseBuiltInChange(role: Role, patch: UpdateRoleInput) {
  if (!role.builtIn) return;
  if (patch.name !== undefined && patch.name !== role.name) {
    throw ApiError.conflict(`'${role.name}' is a built-in role and cannot be renamed`, 'name');
  }
  if (patch.permissions !== undefined && !samePermissions(patch.permissions, role.permissions)) {
    throw ApiError.conflict(`'${role.name}' is a built-in role; its permissions cannot be changed`, 'permissions');
  }
}

const samePermissions = (a: string[], b: string[]) => a.length === b.length && a.every((p) => b.includes(p));

/**
 * The caller must cover the role as it is and as it would be (the grant rule), and may not change
 * the permissions of the role it acts through. The write holds only while the role is as read, so
 * a change made meanwhile (which the cover check did not see) wins and this one is 409.
 */
export async function updateRole(db: Database, actor: Principal, idOrName: string, patch: UpdateRoleInput, now = new Date()): Promise<Role> {
  const current = await getRole(db, idOrName);
  refuseBuiltInChange(current, patch);
  assertCovers(actor, current, `change role '${current.name}'`);
  if (patch.permissions !== undefined && !samePermissions(patch.permissions, current.permissions)) {
    if (ownRole(actor) === current.id) throw ApiError.forbidden(`This credential cannot change the permissions of its own role '${current.name}'`);
    assertCovers(actor, { permissions: patch.permissions }, `give role '${current.name}' these permissions`);
  }
  if (Object.keys(patch).length === 0) return current;
  const set = { ...patch, updatedAt: now.toISOString() };
  const result = await withUniqueConflicts(UNIQUE_FIELDS, () =>
    db
      .update(roles)
      .set(set)
      .where(and(eq(roles.id, current.id), eq(roles.updatedAt, current.updatedAt))),
  );
  if (result.meta.changes === 0) throw ApiError.conflict(`Role '${current.name}' changed meanwhile; read it again and retry`);
  return { ...current, ...set };
}

/**
 * Refused (409) for built-in roles and for roles still held by a user or an API key. The holder
 * check lives in the DELETE itself, so a user given the role meanwhile cannot slip through.
 */
export async function deleteRole(db: Database, actor: Principal, idOrName: string): Promise<void> {
  const current = await getRole(db, idOrName);
  if (current.builtIn) throw ApiError.conflict(`'${current.name}' is a built-in role and cannot be deleted`);
  assertCovers(actor, current, `delete role '${current.name}'`);
  const [[heldByUsers], [heldByKeys], deleted] = await db.batch([
    db.select({ n: count() }).from(users).where(eq(users.roleId, current.id)),
    db.select({ n: count() }).from(apiKeys).where(eq(apiKeys.roleId, current.id)),
    db.delete(roles).where(and(eq(roles.id, current.id), eq(roles.builtIn, false), notHeld(db, current.id))),
  ]);
  if (deleted.meta.changes > 0) return;
  const holders = [heldByUsers!.n && `${heldByUsers!.n} user(s)`, heldByKeys!.n && `${heldByKeys!.n} API key(s)`].filter(Boolean).join(' and ');
  throw ApiError.conflict(`Role '${current.name}' is still held by ${holders || 'someone'}; reassign them first`);
}

function notHeld(db: Database, roleId: string) {
  return and(
    notExists(db.select({ one: users.id }).from(users).where(eq(users.roleId, roleId))),
    notExists(db.select({ one: apiKeys.id }).from(apiKeys).where(eq(apiKeys.roleId, roleId))),
  );
}
