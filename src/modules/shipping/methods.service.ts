import { and, asc, count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type ShippingMethodRow, type ShippingRate, shippingMethods } from '../../db/schema';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor, toMajorOrNull } from '../../lib/money';
import { entriesOf, getStoreCurrencies, minorOf, type StoreCurrencies, storedEntries, type ToMinor } from '../settings';
import type { CreateShippingMethodInput, ShippingMethod, ShippingRateInput, UpdateShippingMethodInput } from './methods.schemas';
import { getShippingZone } from './zones.service';

/** A rate's amounts in major units of its currency (`digits` minor digits). */
function rateInMajor(rate: ShippingRate, digits: number): ShippingRateInput {
  const major = (minor: number) => toMajor(minor, digits);
  if (rate.type === 'flat') return { type: 'flat', amount: major(rate.amount) };
  if (rate.type === 'weight') return { type: 'weight', bands: rate.bands.map((b) => ({ upTo: b.upTo, amount: major(b.amount) })) };
  return { type: 'price', bands: rate.bands.map((b) => ({ from: major(b.from), amount: major(b.amount) })) };
}

/** The method on the wire: its amounts in major units of the default currency, and of each currency of `currencyRates`. */
export function toShippingMethod(row: ShippingMethodRow, store: StoreCurrencies): ShippingMethod {
  const digits = store.default.minorUnits;
  return {
    ...row,
    rate: rateInMajor(row.rate, digits),
    freeAbove: toMajorOrNull(row.freeAbove, digits),
    currencyRates: entriesOf(row.currencyRates, store.digits, (own, d) => ({ rate: rateInMajor(own.rate, d), freeAbove: toMajorOrNull(own.freeAbove, d) })),
  };
}

/** A rate's amounts in minor units of its currency; `field` names it in problems (`rate`, `currencyRates.0.rate`). */
function rateInMinor(rate: ShippingRateInput, minor: ToMinor, field: string): ShippingRate {
  if (rate.type === 'flat') return { type: 'flat', amount: minor(rate.amount, `${field}.amount`) };
  if (rate.type === 'weight') return { type: 'weight', bands: rate.bands.map((b, i) => ({ upTo: b.upTo, amount: minor(b.amount, `${field}.bands.${i}.amount`) })) };
  return {
    type: 'price',
    bands: rate.bands.map((b, i) => ({ from: minor(b.from, `${field}.bands.${i}.from`), amount: minor(b.amount, `${field}.bands.${i}.amount`) })),
  };
}

type StoredAmounts = Partial<Pick<ShippingMethodRow, 'rate' | 'freeAbove' | 'currencyRates'>>;

/** Amounts in minor units of their currencies, each checked against its digits (422 naming every bad one). */
function toStored(input: Pick<UpdateShippingMethodInput, 'rate' | 'freeAbove' | 'currencyRates'>, store: StoreCurrencies): StoredAmounts {
  const errors: FieldProblem[] = [];
  const minor = minorOf(store.default.minorUnits, errors);
  const { rate, freeAbove, currencyRates } = input;
  const out: StoredAmounts = {
    ...(rate ? { rate: rateInMinor(rate, minor, 'rate') } : {}),
    ...(freeAbove !== undefined ? { freeAbove: freeAbove === null ? null : minor(freeAbove, 'freeAbove') } : {}),
    ...(currencyRates
      ? {
          currencyRates: storedEntries(currencyRates, 'currencyRates', store, errors, (entry, own, at) => ({
            rate: rateInMinor(entry.rate, own, `${at}.rate`),
            freeAbove: entry.freeAbove == null ? null : own(entry.freeAbove, `${at}.freeAbove`),
          })),
        }
      : {}),
  };
  if (errors.length) throw ApiError.validation(errors);
  return out;
}

function assertDeliveryDays(method: Pick<ShippingMethodRow, 'minDeliveryDays' | 'maxDeliveryDays'>): void {
  const { minDeliveryDays: min, maxDeliveryDays: max } = method;
  if (min !== null && max !== null && max < min) throw ApiError.validation([{ field: 'maxDeliveryDays', problem: `must be at least minDeliveryDays (${min})`, code: 'too_small' }]);
}

async function methodRow(db: Database, zoneId: string, id: string): Promise<ShippingMethodRow> {
  const [row] = await db
    .select()
    .from(shippingMethods)
    .where(and(eq(shippingMethods.id, id), eq(shippingMethods.zoneId, zoneId)))
    .limit(1);
  if (!row) throw ApiError.notFound('Shipping method', id);
  return row;
}

export async function listShippingMethods(db: Database, zoneId: string): Promise<ShippingMethod[]> {
  await getShippingZone(db, zoneId);
  const [rows, store] = await Promise.all([
    db.select().from(shippingMethods).where(eq(shippingMethods.zoneId, zoneId)).orderBy(asc(shippingMethods.position), asc(shippingMethods.createdAt), asc(shippingMethods.id)),
    getStoreCurrencies(db),
  ]);
  return rows.map((row) => toShippingMethod(row, store));
}

/** Every zone's methods in one read, by zone id, each list by position: for a page of all zones. */
export async function methodsByZone(db: Database): Promise<Map<string, ShippingMethod[]>> {
  const [rows, store] = await Promise.all([
    db.select().from(shippingMethods).orderBy(asc(shippingMethods.zoneId), asc(shippingMethods.position), asc(shippingMethods.createdAt), asc(shippingMethods.id)),
    getStoreCurrencies(db),
  ]);
  const byZone = new Map<string, ShippingMethod[]>();
  for (const row of rows) byZone.set(row.zoneId, [...(byZone.get(row.zoneId) ?? []), toShippingMethod(row, store)]);
  return byZone;
}

export async function getShippingMethod(db: Database, zoneId: string, id: string): Promise<ShippingMethod> {
  const [row, store] = await Promise.all([methodRow(db, zoneId, id), getStoreCurrencies(db)]);
  return toShippingMethod(row, store);
}

/** Methods a zone holds at most (see MAX_SHIPPING_ZONES): also the page size of a zone's method list. */
export const MAX_METHODS_PER_ZONE = 20;

export async function createShippingMethod(db: Database, zoneId: string, input: CreateShippingMethodInput, now = new Date()): Promise<ShippingMethod> {
  await getShippingZone(db, zoneId);
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(shippingMethods).where(eq(shippingMethods.zoneId, zoneId));
  if (n >= MAX_METHODS_PER_ZONE) throw new ApiError('CONFLICT', `A shipping zone holds at most ${MAX_METHODS_PER_ZONE} methods: delete or edit one instead`);
  const store = await getStoreCurrencies(db);
  const stored = toStored(input, store);
  const ts = now.toISOString();
  const row: ShippingMethodRow = {
    id: newId(ID_PREFIX.shippingMethod, now.getTime()),
    zoneId,
    name: input.name,
    carrier: input.carrier ?? null,
    minDeliveryDays: input.minDeliveryDays ?? null,
    maxDeliveryDays: input.maxDeliveryDays ?? null,
    active: input.active ?? true,
    position: input.position ?? 0,
    rate: stored.rate!,
    freeAbove: stored.freeAbove ?? null,
    currencyRates: stored.currencyRates ?? {},
    createdAt: ts,
    updatedAt: ts,
  };
  assertDeliveryDays(row);
  await db.insert(shippingMethods).values(row);
  return toShippingMethod(row, store);
}

export async function updateShippingMethod(db: Database, zoneId: string, id: string, patch: UpdateShippingMethodInput, now = new Date()): Promise<ShippingMethod> {
  const [current, store] = await Promise.all([methodRow(db, zoneId, id), getStoreCurrencies(db)]);
  if (Object.keys(patch).length === 0) return toShippingMethod(current, store);
  const set = { ...patch, ...toStored(patch, store), updatedAt: now.toISOString() } as Partial<ShippingMethodRow>;
  const next = { ...current, ...set };
  assertDeliveryDays(next);
  await db.update(shippingMethods).set(set).where(eq(shippingMethods.id, id));
  return toShippingMethod(next, store);
}

export async function deleteShippingMethod(db: Database, zoneId: string, id: string): Promise<void> {
  await methodRow(db, zoneId, id);
  await db.delete(shippingMethods).where(eq(shippingMethods.id, id));
}
