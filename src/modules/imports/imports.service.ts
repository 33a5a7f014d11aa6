import { and, asc, eq, sql } from 'drizzle-orm';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import type { Database } from '../../db/client';
import { brands, categories, importChunks, importFailures, imports, products, storeSettings } from '../../db/schema';
import { bulkInserts } from '../../db/bound-parameters';
import { inJson } from '../../db/json-rows';
import { CsvSyntaxError, csvRecords } from '../../lib/csv';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { inGroupsOf } from '../../lib/in-groups';
import { sendAll } from '../../lib/queue-send';
import { type ReadFile, readRows } from './formats';
import type { ImportMessage } from '../../lib/queue-messages';
import { importListQuery, type ImportSummary, type ImportView } from './imports.schemas';
import { currencyTableOf, currencyTableRead } from '../products';
import { type Failure, type Names, planProducts, type Planned, type ProductPlan } from './plan';
import { refuseUnwritable } from './writable';

/** Products per queue message: a chunk is written product by product (one D1 batch each), then counted in one more. */
export const CHUNK_PRODUCTS = 25;
/** The failures an import answer lists (all are kept; the count is exact). */
const FAILURES_SHOWN = 500;

export type { ImportMessage };

/** What a dry run and a real import may be given besides the file. */
export interface ImportOptions {
  now?: Date;
  /** The bound values a statement may have (refuseUnwritable): D1's, unless a test stands in a lower limit for a statement D1 would refuse. */
  maxBoundParameters?: number;
}

/**
 * Parses and checks the file: every row grouped into products, every bad cell a failure, and every
 * product whose write D1 would refuse a failure too (refuseUnwritable), for the dry run and the
 * real import alike.
 */
export async function planImport(db: Database, csv: string, options: ImportOptions = {}): Promise<{ file: ReadFile; planned: Planned }> {
  const names = await namesOf(db);
  try {
    const file = readRows(csvRecords(csv));
    if ('error' in file) throw ApiError.validation([{ field: 'body', problem: file.error }]);
    const planned = planProducts(file, names); // reads the file, row by row
    if (planned.rows === 0) throw ApiError.validation([{ field: 'body', problem: 'the file has a header but no rows', code: 'too_small' }]);
    refuseUnwritable(db, planned, names, options.maxBoundParameters);
    return { file, planned };
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw ApiError.validation([{ field: 'body', problem: `line ${error.line}: ${error.message}`, code: 'invalid_format' }]);
    throw error;
  }
}

/** Brands by lower-cased name and slug; categories by slug, name and path from the top (`home > kitchen`). */
async function namesOf(db: Database): Promise<Names> {
  const [brandRows, categoryRows, settingsRows, currencyRows] = await db.batch([
    db.select({ id: brands.id, name: brands.name, slug: brands.slug }).from(brands),
    db.select({ id: categories.id, name: categories.name, slug: categories.slug, parentId: categories.parentId }).from(categories),
    db.select({ weightUnit: storeSettings.weightUnit }).from(storeSettings),
    currencyTableRead(db, {}),
  ]);
  const brandNames = new Map<string, string>();
  for (const b of brandRows) brandNames.set(b.slug.toLowerCase(), b.id).set(b.name.toLowerCase(), b.id);
  const byId = new Map(categoryRows.map((c) => [c.id, c]));
  const path = (c: (typeof categoryRows)[number]): string => {
    const parent = c.parentId ? byId.get(c.parentId) : undefined;
    return parent && parent.id !== c.id ? `${path(parent)} > ${c.name.toLowerCase()}` : c.name.toLowerCase();
  };
  const categoryNames = new Map<string, string>();
  const nameCounts = new Map<string, number>();
  for (const c of categoryRows) nameCounts.set(c.name.toLowerCase(), (nameCounts.get(c.name.toLowerCase()) ?? 0) + 1);
  for (const c of categoryRows) {
    // A bare name works when only one category has it; a path or a slug always does.
    if (nameCounts.get(c.name.toLowerCase()) === 1) categoryNames.set(c.name.toLowerCase(), c.id);
    categoryNames.set(c.slug.toLowerCase(), c.id).set(path(c), c.id);
  }
  return { brands: brandNames, categories: categoryNames, weightUnit: settingsRows[0]?.weightUnit ?? 'kg', currencies: currencyTableOf(currencyRows) };
}

/** What a dry run answers: the counts a real run would start from, and every failure. */
export async function dryRun(db: Database, csv: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const { file, planned } = await planImport(db, csv, options);
  const existing = await existingKeys(db, planned.plans);
  const updates = planned.plans.filter((p) => (p.sku && existing.skus.has(p.sku)) || (p.handle && existing.slugs.has(p.handle))).length;
  return {
    dryRun: true,
    format: file.format,
    rows: planned.rows,
    products: planned.plans.length + planned.failedProducts,
    create: planned.plans.length - updates,
    update: updates,
    failed: planned.failedProducts,
    failedRows: planned.failedRows,
    ignoredColumns: file.ignored,
    failures: planned.failures,
  };
}

async function existingKeys(db: Database, plans: ProductPlan[]) {
  const skus = new Set<string>();
  const slugs = new Set<string>();
  for (const group of inGroupsOf(plans, 500)) {
    const rows = await db
      .select({ sku: products.sku, slug: products.slug })
      .from(products)
      .where(
        sql`${inJson(products.sku, JSON.stringify(group.map((p) => p.sku).filter(Boolean)))} OR ${inJson(products.slug, JSON.stringify(group.map((p) => p.handle).filter(Boolean)))}`,
      );
    for (const r of rows) {
      if (r.sku) skus.add(r.sku);
      slugs.add(r.slug);
    }
  }
  return { skus, slugs };
}

/**
 * Starts a real import: the valid products are stored in chunks and queued, the failures found
 * already are recorded (their rows count as done), and the import is answered at once.
 */
export async function startImport(
  db: Database,
  queue: Queue<ImportMessage>,
  csv: string,
  who: { actor: string; vendorId: string | null },
  options: ImportOptions = {},
): Promise<ImportView> {
  const { file, planned } = await planImport(db, csv, options);
  const now = options.now ?? new Date();
  const id = newId(ID_PREFIX.productImport, now.getTime());
  const chunks = inGroupsOf(planned.plans, CHUNK_PRODUCTS);
  const ts = now.toISOString();
  const row = {
    id,
    status: chunks.length ? ('queued' as const) : ('completed' as const),
    format: file.format,
    actor: who.actor,
    vendorId: who.vendorId,
    rows: planned.rows,
    products: planned.plans.length + planned.failedProducts,
    chunks: chunks.length,
    rowsDone: planned.failedRows,
    failed: planned.failedProducts,
    completedAt: chunks.length ? null : ts,
    createdAt: ts,
    updatedAt: ts,
  };
  const statements = [
    db.insert(imports).values(row),
    ...chunks.map((plans, n) => db.insert(importChunks).values({ importId: id, n, plans })),
    ...bulkInserts(
      db,
      importFailures,
      planned.failures.map((f) => ({ importId: id, ...f })),
    ),
  ];
  // D1 takes batches of bounded size: the import row goes in the first, so a later failure leaves a queued import with fewer chunks than it says (then it never completes and says so).
  for (const group of inGroupsOf(statements, 50)) await db.batch(group as never);
  await sendAll(
    queue,
    chunks.map((_, n) => ({ importId: id, n })),
  );
  return getImport(db, id);
}

/** A page of imports (a vendor user's own only), as the list query asks. */
export async function listImports(db: Database, query: ParsedListQuery<typeof importListQuery.filters>, vendorId: string | null) {
  const plan = listPlan(importListQuery, query, [vendorId ? eq(imports.vendorId, vendorId) : undefined]);
  const [rows, total] = await db.batch([
    db
      .select()
      .from(imports)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ n: sql<number>`count(*)` }).from(imports).where(plan.matching),
  ]);
  return { items: rows.map(({ chunks: _c, chunksDone: _d, vendorId: _v, ...shown }) => shown), total: total[0]?.n ?? 0 };
}

export async function getImport(db: Database, id: string, vendorId: string | null = null): Promise<ImportView> {
  const [rows, failures, counted] = await db.batch([
    db
      .select()
      .from(imports)
      .where(and(eq(imports.id, id), vendorId ? eq(imports.vendorId, vendorId) : undefined)),
    db
      .select({ line: importFailures.line, column: importFailures.column, reason: importFailures.reason })
      .from(importFailures)
      .where(eq(importFailures.importId, id))
      .orderBy(asc(importFailures.line))
      .limit(FAILURES_SHOWN),
    db.select({ n: sql<number>`count(*)` }).from(importFailures).where(eq(importFailures.importId, id)),
  ]);
  const row = rows[0];
  if (!row) throw ApiError.notFound('Import', id);
  const { chunks: _c, chunksDone: _d, vendorId: _v, ...shown } = row;
  return { ...shown, failures: failures as Failure[], failuresTotal: counted[0]?.n ?? 0 };
}
