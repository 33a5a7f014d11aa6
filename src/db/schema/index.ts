/**
 * Every table of the store, one file per domain, all re-exported here so that modules import tables
 * from `db/schema` and never each other for foreign keys. A domain file imports only the domains
 * below it (catalogue <- identity <- commerce, notifications, admin; events <- webhooks), never this
 * index. Conventions: ids are prefixed, time-ordered text (`prod_01J...`); timestamps are ISO 8601
 * UTC text (they sort as they compare: `now` in columns.ts); money is integer minor units; JSON
 * columns hold text. drizzle-kit generates the migrations from this file (drizzle.config.ts).
 */
export * from './catalogue';
export * from './identity';
export * from './events';
export * from './commerce';
export * from './after-sale';
export * from './webhooks';
export * from './notifications';
export * from './admin';
export * from './content';
export * from './audit';
export * from './listing';
export * from './reports';
export * from './imports';
export * from './price-lists';
export * from './promotions';
