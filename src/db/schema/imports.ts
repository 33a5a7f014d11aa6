import { now } from './columns';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

const timestamps = {
  createdAt: text('created_at').notNull().default(now),
  updatedAt: text('updated_at').notNull().default(now),
};

export const IMPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export const IMPORT_FORMATS = ['store', 'shopify'] as const;

/**
 * A product import (src/modules/imports/): what the file held once validated, and how far the
 * queue has got with it. The counters move in the same batch as each chunk's last product, so
 * they are exact at every moment.
 */
export const imports = sqliteTable(
  'imports',
  {
    id: text('id').primaryKey(),
    status: text('status', { enum: IMPORT_STATUSES }).notNull().default('queued'),
    format: text('format', { enum: IMPORT_FORMATS }).notNull(),
    /** `user:<id>` or `key:<id>`. */
    actor: text('actor').notNull(),
    /** The vendor a vendor user imports for (its products only), else null. */
    vendorId: text('vendor_id'),
    /** Data rows in the file (the header not counted). */
    rows: integer('rows').notNull(),
    /** Products the rows describe, valid or not. */
    products: integer('products').notNull(),
    /** Chunks the products were queued in, and how many are done. */
    chunks: integer('chunks').notNull(),
    chunksDone: integer('chunks_done').notNull().default(0),
    /** Rows processed so far: those of products written, left unchanged or failed. */
    rowsDone: integer('rows_done').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    /** Products not written, each with its rows' failures in import_failures. */
    failed: integer('failed').notNull().default(0),
    /** Why a `failed` import stopped (the credential that started it can no longer import); null otherwise. */
    reason: text('reason'),
    /** When it completed, or failed. */
    completedAt: text('completed_at'),
    ...timestamps,
  },
  (t) => [index('imports_created_idx').on(t.createdAt)],
);

/** The validated products of one queue message, waiting for the consumer (deleted once done). */
export const importChunks = sqliteTable(
  'import_chunks',
  {
    importId: text('import_id').notNull(),
    n: integer('n').notNull(),
    /** The product plans (src/modules/imports/plan.ts), as JSON. */
    plans: text('plans', { mode: 'json' }).$type<unknown[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.n] })],
);

/** Why a row was not imported: its line in the file, the column, and the reason. */
export const importFailures = sqliteTable(
  'import_failures',
  {
    importId: text('import_id').notNull(),
    line: integer('line').notNull(),
    column: text('column').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [index('import_failures_import_idx').on(t.importId, t.line)],
);
