import type { EventKind, ModuleDeclaration } from '../lib/define-module';
import type { EventType } from '../lib/event-types';
import apiIndex from './api-index/module';
import apiKeys from './api-keys/module';
import auditLog from './audit-log/module';
import auth from './auth/module';
import banners from './banners/module';
import brands from './brands/module';
import carts from './carts/module';
import categories from './categories/module';
import checkout from './checkout/module';
import coupons from './coupons/module';
import customerGroups from './customer-groups/module';
import customers from './customers/module';
import events from './events/module';
import giftCards from './gift-cards/module';
import health from './health/module';
import imports from './imports/module';
import inventory from './inventory/module';
import ledger from './ledger/module';
import media from './media/module';
import menus from './menus/module';
import notifications from './notifications/module';
import orders from './orders/module';
import pages from './pages/module';
import payments from './payments/module';
import priceLists from './price-lists/module';
import products from './products/module';
import promotions from './promotions/module';
import reports from './reports/module';
import returns from './returns/module';
import roles from './roles/module';
import settings from './settings/module';
import shipments from './shipments/module';
import shipping from './shipping/module';
import users from './users/module';
import vendors from './vendors/module';
import webhooks from './webhooks/module';

/**
 * Every module of the store. Their order is the order the app matches their routers (only modules
 * sharing a first path segment compete: products before media before imports, orders before payments
 * before shipments before returns, api-keys before settings before shipping), the order of the
 * OpenAPI document's paths, and the order of the event kinds (orders' first, as webhook replays and
 * subscriptions list them). Adding a module is its folder and one line here; the mounts, the
 * permission list, the audit list and the event list follow.
 */
export const MODULES = [
  orders,
  products,
  media,
  customers,
  payments,
  ledger,
  shipments,
  returns,
  inventory,
  pages,
  carts,
  giftCards,
  apiIndex,
  health,
  categories,
  brands,
  auth,
  customerGroups,
  users,
  vendors,
  roles,
  apiKeys,
  settings,
  shipping,
  coupons,
  priceLists,
  promotions,
  webhooks,
  notifications,
  menus,
  banners,
  auditLog,
  events,
  reports,
  imports,
  checkout,
] as const satisfies readonly ModuleDeclaration[];

/** Tables no module owns: the platform's own bookkeeping, never audited. */
export const PLATFORM_TABLES: Readonly<Record<string, string>> = {
  write_guards: 'never holds a row: assertions a batch makes, checked and dropped by a trigger',
  idempotency_keys: 'request bookkeeping (stored responses)',
};

const declared: readonly ModuleDeclaration[] = MODULES;

/** Every permission resource, alphabetically (a role's or key's permissions name these: src/lib/permissions.ts). */
export const PERMISSION_RESOURCES = [...new Set(declared.flatMap((module) => module.permissions ?? []))].sort();

/** Audited tables and the resource name their rows are logged under (src/db/audit-triggers.ts). */
export const AUDITED_TABLES: Readonly<Record<string, string>> = Object.fromEntries(declared.flatMap((module) => Object.entries(module.tables?.audited ?? {})));

/** Tables whose writes are not audited, and why. */
export const NOT_AUDITED: Readonly<Record<string, string>> = {
  ...Object.fromEntries(declared.flatMap((module) => Object.entries(module.tables?.notAudited ?? {}))),
  ...PLATFORM_TABLES,
};

/** Every event kind the outbox writes, in MODULES' order (each module's in its own). */
export const EVENT_TYPES = declared.flatMap((module) => module.events ?? []) as [EventType, ...EventType[]];

/** The payload schema of every event kind, loaded from the modules on use (the OpenAPI document's `webhooks`, the tests). */
export async function eventKinds(): Promise<Record<EventType, EventKind>> {
  const kinds = await Promise.all(declared.map((module) => module.eventKinds?.() ?? {}));
  return Object.assign({}, ...kinds);
}
