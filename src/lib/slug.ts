import { and, gte, lt, or, eq } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';

const MAX_SLUG_LENGTH = 100;

/** `Été Shirt (Blue)` -> `ete-shirt-blue`. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/g, '');
  return slug || 'item';
}

/**
 * A slug derived from a name that no row has yet: `shirt`, else `shirt-2`, `shirt-3`, ... One range
 * query (no LIKE, whose patterns D1 caps at 50 bytes) finds the suffixes in use.
 */
export async function uniqueSlug(db: Database, table: SQLiteTable, column: SQLiteColumn, name: string): Promise<string> {
  const base = slugify(name);
  const rows = (await db
    .select({ slug: column })
    .from(table)
    .where(or(eq(column, base), and(gte(column, `${base}-`), lt(column, `${base}.`))))
    .all()) as { slug: string }[];
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
