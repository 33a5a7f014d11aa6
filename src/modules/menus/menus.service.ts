import { and, eq, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import { categories, type MenuLinkType, type MenuRow, menus, pages, products, type StoredMenuItem } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { listTable, type ParsedListQuery } from '../../lib/query';
import { uniqueSlug } from '../../lib/slug';
import { isStaff, type Principal } from '../../lib/access';
import { menuListQuery } from './menus.query';
import type { CreateMenuInput, Menu, MenuItem, MenuItemInput, UpdateMenuInput } from './menus.schemas';

const UNIQUE_FIELDS = { 'menus.handle': 'handle' };

/** Where each kind of target lives, its storefront path, and when the public may see it. */
const TARGETS: Record<Exclude<MenuLinkType, 'url'>, { table: SQLiteTable; id: SQLiteColumn; slug: SQLiteColumn; path: string; isPublic: (now: string) => SQL }> = {
  page: { table: pages, id: pages.id, slug: pages.slug, path: '/pages', isPublic: (now) => and(eq(pages.status, 'published'), lte(pages.publishedAt, now))! },
  category: { table: categories, id: categories.id, slug: categories.slug, path: '/categories', isPublic: () => sql`1` },
  product: { table: products, id: products.id, slug: products.slug, path: '/products', isPublic: () => eq(products.status, 'active') },
};

interface Target {
  slug: string;
  isPublic: boolean;
}

/** D1 binds at most 100 parameters per statement: ids per query (half as many when slugs are matched too). */
const CHUNK = 90;

function flatten(items: { type: string; targetId?: string | null; children?: unknown[] }[]): { type: string; targetId?: string | null }[] {
  return items.flatMap((item) => [item, ...flatten((item.children ?? []) as typeof items)]);
}

/** The targets named by `refs` (by id, or by id or slug when `bySlug`), keyed `type:idOrSlug`. */
async function findTargets(db: Database, refs: { type: string; targetId?: string | null }[], now: Date, bySlug: boolean) {
  const found = new Map<string, Target & { id: string }>();
  for (const [type, spec] of Object.entries(TARGETS)) {
    const ids = [...new Set(refs.filter((r) => r.type === type && r.targetId).map((r) => r.targetId!))];
    const size = bySlug ? CHUNK / 2 : CHUNK;
    for (let i = 0; i < ids.length; i += size) {
      const chunk = ids.slice(i, i + size);
      const rows = (await db
        .select({ id: spec.id, slug: spec.slug, isPublic: spec.isPublic(now.toISOString()).mapWith(Boolean) })
        .from(spec.table)
        .where(bySlug ? or(inArray(spec.id, chunk), inArray(spec.slug, chunk)) : inArray(spec.id, chunk))) as (Target & { id: string })[];
      for (const row of rows) {
        found.set(`${type}:${row.id}`, row);
        found.set(`${type}:${row.slug}`, row);
      }
    }
  }
  return found;
}

/** Input items as stored: targets resolved to their ids (a slug is accepted), 422 naming every target not found. */
async function storedItems(db: Database, items: MenuItemInput[], now: Date): Promise<StoredMenuItem[]> {
  const targets = await findTargets(db, flatten(items), now, true);
  const errors: FieldProblem[] = [];
  const store = (list: MenuItemInput[], path: string): StoredMenuItem[] =>
    list.map((item, i) => {
      const target = item.targetId ? targets.get(`${item.type}:${item.targetId}`) : undefined;
      if (item.type !== 'url' && !target) errors.push({ field: `${path}.${i}.targetId`, problem: `no ${item.type} '${item.targetId}'`, code: 'not_found' });
      const children = 'children' in item && item.children ? store(item.children as MenuItemInput[], `${path}.${i}.children`) : [];
      return { label: item.label, type: item.type, url: item.type === 'url' ? item.url! : null, targetId: target?.id ?? null, children };
    });
  const stored = store(items, 'items');
  if (errors.length) throw ApiError.validation(errors);
  return stored;
}

/** Stored items as a reader sees them: link paths filled in; for the public, unavailable targets dropped. */
function readItems(items: StoredMenuItem[], targets: Map<string, Target>, staff: boolean): MenuItem[] {
  return items.flatMap((item) => {
    const target = item.targetId ? targets.get(`${item.type}:${item.targetId}`) : undefined;
    if (item.type !== 'url' && !staff && !target?.isPublic) return [];
    const path = item.type === 'url' ? item.url : target ? `${TARGETS[item.type].path}/${target.slug}` : null;
    return [{ label: item.label, type: item.type, url: path, targetId: item.targetId, children: readItems(item.children, targets, staff) as never }];
  });
}

/** `staff`: a reader with content permissions (and every writer), who sees links to drafts and to missing targets. */
async function toMenus(db: Database, rows: MenuRow[], staff: boolean, now: Date): Promise<Menu[]> {
  const targets = await findTargets(
    db,
    rows.flatMap((row) => flatten(row.items)),
    now,
    false,
  );
  return rows.map((row) => ({ ...row, items: readItems(row.items, targets, staff) }));
}

export async function listMenus(db: Database, query: ParsedListQuery<typeof menuListQuery.filters>, principal: Principal, now = new Date()) {
  const { items, total } = await listTable<MenuRow, typeof menuListQuery.filters>(db, menus, menuListQuery, query);
  return { items: await toMenus(db, items, isStaff(principal, 'content'), now), total };
}

async function findMenu(db: Database, idOrHandle: string): Promise<MenuRow> {
  const [row] = await db
    .select()
    .from(menus)
    .where(or(eq(menus.id, idOrHandle), eq(menus.handle, idOrHandle)))
    .limit(1);
  if (!row) throw ApiError.notFound('Menu', idOrHandle);
  return row;
}

export async function getMenu(db: Database, idOrHandle: string, principal: Principal, now = new Date()): Promise<Menu> {
  return (await toMenus(db, [await findMenu(db, idOrHandle)], isStaff(principal, 'content'), now))[0]!;
}

export async function createMenu(db: Database, input: CreateMenuInput, now = new Date()): Promise<Menu> {
  const ts = now.toISOString();
  const row: MenuRow = {
    id: newId(ID_PREFIX.menu, now.getTime()),
    name: input.name,
    handle: input.handle ?? (await uniqueSlug(db, menus, menus.handle, input.name)),
    items: await storedItems(db, input.items ?? [], now),
    createdAt: ts,
    updatedAt: ts,
  };
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.insert(menus).values(row));
  return (await toMenus(db, [row], true, now))[0]!;
}

export async function updateMenu(db: Database, idOrHandle: string, patch: UpdateMenuInput, now = new Date()): Promise<Menu> {
  const current = await findMenu(db, idOrHandle);
  if (Object.keys(patch).length === 0) return (await toMenus(db, [current], true, now))[0]!;
  const { items, ...rest } = patch;
  const set: Partial<MenuRow> = {
    ...rest,
    ...(items !== undefined ? { items: await storedItems(db, items, now) } : {}),
    updatedAt: now.toISOString(),
  };
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.update(menus).set(set).where(eq(menus.id, current.id)));
  return (await toMenus(db, [{ ...current, ...set } as MenuRow], true, now))[0]!;
}

export async function deleteMenu(db: Database, idOrHandle: string): Promise<void> {
  const current = await findMenu(db, idOrHandle);
  await db.delete(menus).where(eq(menus.id, current.id));
}
