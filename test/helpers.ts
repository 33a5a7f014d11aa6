import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { createDb } from '../src/db/client';
import { events } from '../src/db/schema';
import { type EventType, outboxEvent, takeNotedEvents } from '../src/lib/events';
import { tokenForUser } from '../src/lib/jwt';
import { createApiKey } from '../src/modules/api-keys/api-keys.service';
import { createUser } from '../src/modules/users/users.service';
import { workerFetch } from './worker-fetch';

export const db = () => createDb(env.DB);

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls the Worker as a client would, and reads the whole body (JSON when it is JSON). */
export async function api<T = any>(path: string, init: RequestInit & { json?: unknown; key?: string } = {}): Promise<ApiResponse<T>> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('Authorization', `Bearer ${init.key}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const response = await workerFetch(new Request(`http://store.test${path}`, { ...init, headers, body }));
  const text = await response.text();
  const isJson = response.headers.get('Content-Type')?.includes('application/json');
  return { status: response.status, headers: response.headers, body: (isJson && text ? JSON.parse(text) : text) as T };
}

/** Asserts an error response: its status and its code, in the error envelope. */
export function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.success).toBe(false);
  expect(res.body.error.code).toBe(code);
}

/**
 * Writes one outbox event as a request's batch would (outboxEvent), and returns its row. Its data is
 * whatever the test gives: these tests are about delivery; test/webhooks/event-payloads.test.ts checks shapes.
 */
export async function writeEvent(type: EventType, data: Record<string, unknown>, now = new Date()) {
  const database = db();
  await outboxEvent(database, type, data as never, now);
  const [id] = takeNotedEvents(database);
  const [row] = await database.select().from(events).where(eq(events.id, id!));
  return row!;
}

export async function adminKey(): Promise<string> {
  return (await createApiKey(db(), { name: 'test admin', role: 'admin' })).key;
}

// ---------------------------------------------------------------------------------------------
// Catalogue fixtures. Storage is shared by the tests of one file, so every fixture gets a unique
// name (and so slug) unless the test gives one.

let uniqueCounter = 0;

/** A short lowercase token unique within the run, for names, slugs and SKUs (`k7x2m9`). */
export function uid(): string {
  uniqueCounter += 1;
  return `${uniqueCounter.toString(36)}${crypto.randomUUID().replace(/-/g, '').slice(0, 6)}`;
}

/** Waits long enough for the next write to get a later millisecond timestamp. */
export const tick = (ms = 3) => new Promise((resolve) => setTimeout(resolve, ms));

async function createOrThrow(path: string, key: string, json: Record<string, unknown>) {
  const res = await api(path, { method: 'POST', key, json });
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Creates an (active, unless told otherwise) product through the API and returns its representation. */
export function createProduct(key: string, body: Record<string, unknown> = {}) {
  return createOrThrow('/api/products', key, { name: `Product ${uid()}`, price: 10, status: 'active', ...body });
}

export function createCategory(key: string, body: Record<string, unknown> = {}) {
  return createOrThrow('/api/categories', key, { name: `Category ${uid()}`, ...body });
}

export function createBrand(key: string, body: Record<string, unknown> = {}) {
  return createOrThrow('/api/brands', key, { name: `Brand ${uid()}`, ...body });
}

/** Inserts a vendor row directly (faster than the vendors API, which has its own tests) and returns it. */
export async function insertVendor(values: { name?: string; slug?: string } = {}) {
  const { vendors } = await import('../src/db/schema');
  const token = uid();
  const row = { id: `vend_${token.toUpperCase()}`, name: values.name ?? `Vendor ${token}`, slug: values.slug ?? `vendor-${token}` };
  await db().insert(vendors).values(row);
  return row;
}

/**
 * Inserts a brand and `count` active products of it directly (for lists of hundreds of rows; the
 * products API has its own tests). Three products share each `createdAt`, so a sort on it leans on
 * its id tie-break, and the later a product the later its `createdAt` (all in 2030, after any other
 * product of a test). Returns the brand's slug and the products' names, first inserted first.
 */
export async function insertBrandWithProducts(count: number): Promise<{ slug: string; names: string[] }> {
  const token = uid();
  const slug = `brand-${token}`;
  const brandId = `brand_${token.toUpperCase()}`;
  await env.DB.prepare('INSERT INTO brands (id, name, slug) VALUES (?, ?, ?)').bind(brandId, `Brand ${token}`, slug).run();
  const start = Date.parse('2030-01-01T00:00:00.000Z') - count * 1000;
  const insert = env.DB.prepare('INSERT INTO products (id, name, slug, price, status, brand_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const statements = Array.from({ length: count }, (_, i) => {
    const at = new Date(start + Math.floor(i / 3) * 1000).toISOString();
    return insert.bind(`prod_${token.toUpperCase()}${String(i).padStart(5, '0')}`, `Item ${token} ${i}`, `item-${token}-${i}`, 100 + i, 'active', brandId, at, at);
  });
  for (let i = 0; i < statements.length; i += 200) await env.DB.batch(statements.slice(i, i + 200));
  return { slug, names: Array.from({ length: count }, (_, i) => `Item ${token} ${i}`) };
}

// ---------------------------------------------------------------------------------------------
// Identity fixtures.

export const TEST_PASSWORD = 'correct horse battery';

/**
 * Inserts a user straight through the users service (customer unless told otherwise) and signs a
 * JWT for it, so tests of other endpoints need not go through sign-up and login.
 */
export async function insertUser(values: { role?: string; vendorId?: string | null; email?: string; name?: string; password?: string } = {}) {
  const password = values.password ?? TEST_PASSWORD;
  const user = await createUser(db(), {
    email: values.email ?? `user-${uid()}@example.test`,
    password,
    name: values.name ?? `User ${uid()}`,
    roleId: values.role ?? 'customer',
    vendorId: values.vendorId ?? null,
  });
  const { token } = await tokenForUser(env, user);
  return { user, token, password };
}

/** A vendor with one signed-in vendor user. */
export async function insertVendorUser() {
  const vendor = await insertVendor();
  const { user, token } = await insertUser({ role: 'vendor', vendorId: vendor.id });
  return { vendor, user, token };
}
