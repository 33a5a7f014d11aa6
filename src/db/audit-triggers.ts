import { getTableColumns, is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as schema from './schema';

/**
 * The audit log is written by triggers: AFTER INSERT / UPDATE / DELETE on every audited table, each
 * adds one `audit_log` row when an `audit_context` row exists, which only an audited principal's
 * batch has (src/d1/audit.ts). Being triggers, they cover every write path (services, the admin
 * panel, code not written yet) in the same transaction as the write, with before and after values
 * read from OLD and NEW.
 *
 * Every table of the schema is either audited (with the resource name the log shows) or listed in
 * NOT_AUDITED with the reason; test/audit/triggers.node.test.ts fails on a table in neither, and on
 * a trigger that no longer matches its table's columns. After changing an audited table, run
 * `npm run db:audit-triggers` (inside the migration lock) to generate the migration that recreates them.
 */

/** Audited tables and the resource name their rows are logged under. */
export const AUDITED_TABLES: Record<string, string> = {
  categories: 'category',
  brands: 'brand',
  vendors: 'vendor',
  products: 'product',
  product_variants: 'variant',
  product_categories: 'product_category',
  product_media: 'product_media',
  roles: 'role',
  users: 'user',
  addresses: 'address',
  api_keys: 'api_key',
  store_settings: 'settings',
  currencies: 'currency',
  tax_classes: 'tax_class',
  tax_rates: 'tax_rate',
  shipping_zones: 'shipping_zone',
  shipping_methods: 'shipping_method',
  carts: 'cart',
  cart_lines: 'cart_line',
  orders: 'order',
  order_lines: 'order_line',
  payments: 'payment',
  refunds: 'refund',
  shipments: 'shipment',
  shipment_lines: 'shipment_line',
  webhook_endpoints: 'webhook',
  notification_templates: 'notification_template',
  pages: 'page',
  menus: 'menu',
  banners: 'banner',
  returns: 'return',
  return_lines: 'return_line',
  gift_cards: 'gift_card',
  customer_groups: 'customer_group',
  customer_group_members: 'customer_group_member',
  price_lists: 'price_list',
  price_list_prices: 'price_list_price',
  promotions: 'promotion',
};

/**
 * Rows of an audited table logged under another resource name when a boolean column is set: a
 * coupon is a promotions row (migration 0070) and its log stays the coupon's, as before.
 */
export const ROW_RESOURCES: Record<string, { column: string; resource: string }> = {
  promotions: { column: 'is_coupon', resource: 'coupon' },
};

/** Every resource name the log can hold. */
export const AUDIT_RESOURCES = [...new Set([...Object.values(AUDITED_TABLES), ...Object.values(ROW_RESOURCES).map((r) => r.resource)])].sort();

/** The resource a row is logged under: the table's, or its ROW_RESOURCES one. */
function resourceExpression(table: string, row: 'NEW' | 'OLD'): string {
  const byRow = ROW_RESOURCES[table];
  const resource = `'${AUDITED_TABLES[table]}'`;
  return byRow ? `iif(${row}.\`${byRow.column}\` = 1, '${byRow.resource}', ${resource})` : resource;
}

/** Tables whose writes are not audited, and why. */
export const NOT_AUDITED: Record<string, string> = {
  audit_log: 'the log itself (append-only)',
  refund_lines: "a refund's lines, written with the refund (which is audited)",
  store_credit_entries: 'a ledger itself: every change of a store credit balance, with who made it',
  store_credit_balances: 'the sums of store_credit_entries, kept by a trigger',
  gift_card_transactions: "a ledger itself: every change of a gift card's balance, with who made it",
  cart_gift_cards: 'gift cards applied to a cart, bookkeeping of the cart',
  audit_context: 'who is writing, for the triggers; lives only inside a transaction',
  events: 'the outbox: itself a record of domain events',
  event_positions: "the events' position counter, kept by their insert trigger",
  product_status_counts: 'derived counters kept by triggers',
  category_product_counts: 'derived counters kept by triggers',
  category_tree: 'the category hierarchy as pairs, derived from categories.parent_id by triggers',
  product_facet_counts: 'derived counters kept by triggers',
  product_search_rows: "the full-text index's row number of each product, kept by triggers with the index (migrations/0030_product_search.sql)",
  sales_days: 'sales by day, derived from orders and refunds by triggers',
  product_sales_days: 'product sales by day, derived from order lines by triggers',
  product_sales_months: 'product sales by month, derived from order lines by triggers',
  imports: 'a product import and its progress; the products it writes are audited',
  import_chunks: 'validated rows waiting for the import queue',
  import_failures: "an import's rejected rows, kept with it",
  category_listing: 'every product under every category with its sort columns, derived from links, category_tree and products by triggers',
  media_unused: 'bookkeeping of stored files no image uses, deleted from R2 (src/modules/products/product-media.objects.ts)',
  product_related_refresh: 'always empty: rebuild requests for products.related, applied by a trigger',
  catalogue_version: 'a version number bumped by triggers',
  quote_version: 'a version number bumped by triggers',
  write_guards: 'never holds a row: assertions a batch makes, checked and dropped by a trigger',
  idempotency_keys: 'request bookkeeping (stored responses)',
  provider_events: "a payment provider's webhook events, recorded once handled (their effects on payments and refunds are audited)",
  order_status_history: "a history itself; the order's status change is audited on the order",
  inventory_adjustments: 'a stock history itself; the stock change is audited on the variant',
  promotion_usages: "bookkeeping of placed orders; the promotion's timesUsed change is audited",
  coupons: 'emptied by migration 0070: coupons are promotions rows; dropped in a later release',
  coupon_usages: 'emptied by migration 0070: coupons are promotions rows; dropped in a later release',
  webhook_deliveries: 'delivery bookkeeping written by the queue consumers',
  webhook_attempts: 'delivery bookkeeping written by the queue consumers',
  webhook_replays: 'a replay of past events to an endpoint and its progress, written by the replay queue; the endpoint itself is audited',
  notifications: 'a log of messages sent, written by the notification pipeline',
  password_reset_tokens: 'credential bookkeeping (token hashes)',
  cart_recoveries: "bookkeeping of cart reminders' links, written by the cron and redeemed by the shopper (src/modules/carts/recovery.ts)",
  admin_sessions: 'sign-in bookkeeping of the admin panel (token hashes)',
  login_failures: 'sign-in bookkeeping (lock-outs)',
};

/** Fields left out of every diff: bookkeeping that changes on every write or by itself. */
const IGNORED_FIELDS: Record<string, string[]> = {
  '*': ['createdAt', 'updatedAt'],
  api_keys: ['lastUsedAt'],
  products: ['related', 'media', 'variantPrices'],
  users: ['lastLoginAt'],
};

/**
 * A column changed on its own far more often than the rest (a variant's stock: every order line),
 * whose changes alone get a trigger of their own: small to compile and run. The table's update
 * trigger then fires only when another audited column changed (and still shows this one if it did).
 */
const HOT_COLUMN: Record<string, string> = {
  product_variants: 'stock',
};

/** Columns whose values never reach the log: the field is shown as changed, its value as `[redacted]`. */
export const REDACTED_COLUMN = /(hash|secret|password|salt|csrf)/i;
export const REDACTED = '[redacted]';

interface AuditColumn {
  field: string;
  column: string;
  kind: 'json' | 'boolean' | 'redacted' | 'plain';
}

/** Every table the schema declares, by SQL name. */
export function schemaTables(): Map<string, SQLiteTable> {
  const tables = new Map<string, SQLiteTable>();
  for (const value of Object.values(schema)) {
    if (is(value, SQLiteTable)) tables.set(getTableConfig(value).name, value);
  }
  return tables;
}

function auditColumns(name: string, table: SQLiteTable): AuditColumn[] {
  const ignored = new Set([...IGNORED_FIELDS['*']!, ...(IGNORED_FIELDS[name] ?? [])]);
  return Object.entries(getTableColumns(table))
    .filter(([field]) => !ignored.has(field))
    .map(([field, column]) => ({
      field,
      column: column.name,
      kind: REDACTED_COLUMN.test(column.name) ? 'redacted' : column.dataType === 'json' ? 'json' : column.dataType === 'boolean' ? 'boolean' : 'plain',
    }));
}

/** The id a row is logged under: its primary key, or the columns of a composite key joined by `/`. */
function idExpression(table: SQLiteTable, row: 'NEW' | 'OLD'): string {
  const config = getTableConfig(table);
  const single = config.columns.find((c) => c.primary);
  const columns = single ? [single.name] : config.primaryKeys[0]!.columns.map((c) => c.name);
  return columns.map((c) => `${row}.\`${c}\``).join(` || '/' || `);
}

/**
 * A column's value as the log shows it: JSON columns as JSON, booleans as true/false, secrets redacted.
 * iif(), never CASE ... END: wrangler's migration splitter takes that END for the end of the trigger.
 */
function valueExpression(column: AuditColumn, row: 'NEW' | 'OLD'): string {
  const ref = `${row}.\`${column.column}\``;
  switch (column.kind) {
    case 'redacted':
      return `iif(${ref} IS NULL, NULL, '${REDACTED}')`;
    case 'json':
      return `iif(json_valid(${ref}), json(${ref}), ${ref})`;
    case 'boolean':
      return `iif(${ref} = 1, json('true'), iif(${ref} = 0, json('false'), ${ref}))`;
    default:
      return ref;
  }
}

const changed = (c: AuditColumn) => `OLD.\`${c.column}\` IS NOT NEW.\`${c.column}\``;
const updateEntry = (c: AuditColumn) => `json_object('before', ${valueExpression(c, 'OLD')}, 'after', ${valueExpression(c, 'NEW')})`;

/**
 * `{ field: { before?, after? }, ... }`: every column on create and delete; on update only the
 * changed ones (the others are JSON null, dropped by the json_each pass). One SELECT, no UNION: D1
 * caps compound SELECTs at a few terms.
 */
function changesExpression(columns: AuditColumn[], action: 'create' | 'update' | 'delete'): string {
  const entries = columns.map((c) => {
    const value =
      action === 'create'
        ? `json_object('after', ${valueExpression(c, 'NEW')})`
        : action === 'delete'
          ? `json_object('before', ${valueExpression(c, 'OLD')})`
          : `iif(${changed(c)}, ${updateEntry(c)}, NULL)`;
    return `'${c.field}', ${value}`;
  });
  const object = `json_object(\n    ${entries.join(',\n    ')}\n  )`;
  if (action !== 'update') return object;
  return `(SELECT json_group_object(key, json(value)) FROM json_each(${object}) WHERE type <> 'null')`;
}

const TRIGGER_EVENTS = { create: ['INSERT', 'NEW'], update: ['UPDATE', 'NEW'], delete: ['DELETE', 'OLD'] } as const;

export function triggerName(table: string, action: keyof typeof TRIGGER_EVENTS | 'update_hot'): string {
  return `audit_${table}_${action}`;
}

const columnList = (columns: AuditColumn[]) => columns.map((c) => `\`${c.column}\``).join(', ');
const anyChanged = (columns: AuditColumn[]) => `(${columns.map(changed).join(' OR ')})`;

function auditTrigger(name: string, table: SQLiteTable, trigger: { name: string; on: string; when: string[]; row: 'NEW' | 'OLD'; action: string; changes: string }): string {
  return `CREATE TRIGGER \`${trigger.name}\` AFTER ${trigger.on} ON \`${name}\`
WHEN ${['EXISTS (SELECT 1 FROM `audit_context`)', ...trigger.when].join(' AND ')}
BEGIN
  INSERT INTO \`audit_log\` (\`actor_kind\`, \`actor_id\`, \`actor_label\`, \`actor_role\`, \`resource\`, \`resource_id\`, \`action\`, \`changes\`, \`request_id\`, \`method\`, \`path\`, \`created_at\`)
  SELECT ctx.\`actor_kind\`, ctx.\`actor_id\`, ctx.\`actor_label\`, ctx.\`actor_role\`, ${resourceExpression(name, trigger.row)}, ${idExpression(table, trigger.row)}, '${trigger.action}',
  coalesce(${trigger.changes}, '{}'),
  ctx.\`request_id\`, ctx.\`method\`, ctx.\`path\`, ctx.\`at\`
  FROM \`audit_context\` ctx WHERE ctx.\`id\` = 1;
END`;
}

/** The CREATE TRIGGER statements that audit one table. */
export function auditTriggers(name: string, table: SQLiteTable): string[] {
  if (!AUDITED_TABLES[name]) throw new Error(`${name} is not an audited table`);
  const columns = auditColumns(name, table);
  const hot = columns.find((c) => c.column === HOT_COLUMN[name]);
  const rest = columns.filter((c) => c !== hot);
  const triggers = (Object.keys(TRIGGER_EVENTS) as (keyof typeof TRIGGER_EVENTS)[]).map((action) => {
    const [event, row] = TRIGGER_EVENTS[action];
    // UPDATE OF the audited columns: an update of only ignored ones (products.related, which every
    // stock change patches; updatedAt) neither runs nor compiles the trigger. SQLite compiles every
    // trigger a statement may fire when it prepares the statement, and local D1 prepares each call anew.
    const update = action === 'update';
    return auditTrigger(name, table, {
      name: triggerName(name, action),
      on: update ? `UPDATE OF ${columnList(rest)}` : event,
      when: update ? [anyChanged(rest)] : [],
      row,
      action,
      changes: changesExpression(columns, action),
    });
  });
  if (hot) {
    // Only the hot column changed: the update trigger above did not fire, this one does.
    triggers.push(
      auditTrigger(name, table, {
        name: triggerName(name, 'update_hot'),
        on: `UPDATE OF ${columnList([hot])}`,
        when: [anyChanged([hot]), `NOT ${anyChanged(rest)}`],
        row: 'NEW',
        action: 'update',
        changes: `json_object('${hot.field}', ${updateEntry(hot)})`,
      }),
    );
  }
  return triggers;
}

/** The statements that keep the log append-only. */
export const APPEND_ONLY_TRIGGERS = [
  "CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log`\nBEGIN\n  SELECT RAISE(ABORT, 'audit_log is append-only: rows cannot be changed');\nEND",
  "CREATE TRIGGER `audit_log_no_delete` BEFORE DELETE ON `audit_log`\nBEGIN\n  SELECT RAISE(ABORT, 'audit_log is append-only: rows cannot be deleted');\nEND",
];

/** Every audit trigger of the current schema, by trigger name. */
export function expectedTriggers(): Map<string, string> {
  const expected = new Map<string, string>();
  const tables = schemaTables();
  for (const name of Object.keys(AUDITED_TABLES)) {
    const table = tables.get(name);
    if (!table) throw new Error(`AUDITED_TABLES names ${name}, which the schema does not declare`);
    for (const statement of auditTriggers(name, table)) expected.set(/CREATE TRIGGER `([^`]+)`/.exec(statement)![1]!, statement);
  }
  for (const statement of APPEND_ONLY_TRIGGERS) expected.set(/CREATE TRIGGER `([^`]+)`/.exec(statement)![1]!, statement);
  return expected;
}
