import { z } from '@hono/zod-openapi';
import { config, type Vars } from '../../config';
import { IMPORT_FORMATS, IMPORT_STATUSES, imports } from '../../db/schema';
import { createSelectSchema, Timestamp } from '../../lib/schemas';
import { booleanQuery, defineListQuery, enumFilter, fieldTreeFromSchema } from '../../lib/query';

export const importMaxBytes = (env: Pick<Vars, 'IMPORT_MAX_BYTES'>) => config(env).IMPORT_MAX_BYTES;

export const ImportFailureSchema = z
  .object({
    line: z.int().openapi({ description: 'The line of the file the row starts on (the header is line 1).', example: 14 }),
    column: z.string().openapi({ example: 'variant_price' }),
    reason: z.string().openapi({ example: "'12,50' is not a number (use a dot for decimals: 19.99)" }),
  })
  .openapi('ImportFailure');

export const ImportQuery = z.strictObject({
  dry_run: booleanQuery('must be true or false').optional().openapi({ description: '`true`: check the file and say what an import would do, writing nothing.', example: true }),
});

export const ImportSummarySchema = z
  .object({
    dryRun: z.literal(true),
    format: z.enum(IMPORT_FORMATS).openapi({ description: '`store` (the columns of docs/import.md) or `shopify` (a Shopify product export), told from the header.' }),
    rows: z.int().openapi({ description: 'Data rows (the header not counted).' }),
    products: z.int().openapi({ description: 'Products the rows describe.' }),
    create: z.int().openapi({ description: 'Products that would be created.' }),
    update: z.int().openapi({ description: 'Products that match an existing one by SKU or handle and would be updated (or left as they are, if nothing differs).' }),
    failed: z.int().openapi({ description: 'Products that would not be imported, because a row of theirs has a failure.' }),
    failedRows: z.int(),
    ignoredColumns: z.array(z.string()).openapi({ description: 'Header cells the format does not use.' }),
    failures: z.array(ImportFailureSchema),
  })
  .openapi('ImportSummary');
export type ImportSummary = z.infer<typeof ImportSummarySchema>;

export const ImportItemSchema = createSelectSchema(imports, {
  status: z.enum(IMPORT_STATUSES).openapi({
    description:
      '`queued`, `running` (the queue is writing its chunks), then `completed`; or `failed` when the user or key that started it could no longer import products ' +
      '(revoked, expired, disabled, its vendor suspended, `products:write` taken away), or when the store could not write a chunk (its tries spent, or the database refusing it): ' +
      'the rest was not written, and `reason` says why.',
  }),
  reason: z.string().nullable().openapi({ description: 'Why a `failed` import stopped; null otherwise.' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  completedAt: Timestamp.nullable(),
})
  .omit({ chunks: true, chunksDone: true, vendorId: true })
  .openapi('ProductImportItem', { description: 'A product import in a list: its progress, without its failures.' });

export const ImportSchema = ImportItemSchema.extend({
  failures: z.array(ImportFailureSchema).openapi({ description: 'The first 500 failures, by line.' }),
  failuresTotal: z.int(),
}).openapi('ProductImport', {
  description:
    'A product import and its progress: `rowsDone` of `rows` processed; `created`, `updated` and `unchanged` products written so far; `failed` products not imported, each failure with its line, column and reason.',
});
export type ImportView = z.infer<typeof ImportSchema>;

/** Whether an import is over: every chunk counted, or stopped. */
export const importEnded = (status: ImportItem['status']) => status === 'completed' || status === 'failed';
export type ImportItem = z.infer<typeof ImportItemSchema>;

/** The import list: newest first, by status. */
export const importListQuery = defineListQuery({
  resource: 'import',
  id: imports.id,
  sortable: { createdAt: imports.createdAt },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(ImportItemSchema),
  filters: { status: enumFilter(imports.status, IMPORT_STATUSES, 'Import status.') },
});
