import { and, asc, count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type ShippingMethodRow, type ShippingRate, shippingMethods } from '../../db/schema';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor, toMajorOrNull, toMinor } from '../../lib/money';
import { amountProblem, getStoreCurrency } from '../settings/store-currency';
import type { CreateShippingMethodInput, ShippingMethod, ShippingRateInput, UpdateShippingMethodInput } from './methods.schemas';
import { getShippingZone } from './zones.service';

/** The method on the wire: its amounts in major units of the default currency (`digits` minor digits). */
export function toShippingMethod(row: ShippingMethodRow, digits: number): ShippingMethod {
  const major = (minor: number) => toMajor(minor, digits);
  const rate = row.rate;
  return {
    ...row,
    rate:
      rate.type === 'flat'
        ? { type: 'flat', amount: major(rate.amount) }
        : rate.type === 'weight'
          ? { type: 'weight', bands: rate.bands.map((b) => ({ upTo: b.upTo, amount: major(b.amount) })) }
          : { type: 'price', bands: rate.bands.map((b) => ({ from: major(b.from), amount: major(b.amount) })) },
    freeAbove: toMajorOrNull(row.freeAbove, digits),
  };
}

/** Amounts in minor units of the default currency, each checked against its digits (422 naming every bad one). */
function toStored(input: { rate?: ShippingRateInput; freeAbove?: number | null }, digits: number): { rate?: ShippingRate; freeAbove?: number | null } {
  const errors: FieldProblem[] = [];
  const minor = (value: number, field: string) => {
    const problem = amountProblem(value, digits);
    if (problem) errors.push({ field, problem });
    return problem ? 0 : toMinor(value, digits);
  };
  const { rate, freeAbove } = input;
  let stored: ShippingRate | undefined;
  if (rate?.type === 'flat') stored = { type: 'flat', amount: minor(rate.amount, 'rate.amount') };
  if (rate?.type === 'weight') stored = { type: 'weight', bands: rate.bands.map((b, i) => ({ upTo: b.upTo, amount: minor(b.amount, `rate.bands.${i}.amount`) })) };
  if (rate?.type === 'price') {
    stored = { type: 'price', bands: rate.bands.map((b, i) => ({ from: minor(b.from, `rate.bands.${i}.from`), amount: minor(b.amount, `rate.bands.${i}.amount`) })) };
  }
  const out = {
    ...(stored ? { rate: stored } : {}),
    ...(freeAbove !== undefined ? { freeAbove: freeAbove === null ? null : minor(freeAbove, 'freeAbove') } : {}),
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
  const [rows, { minorUnits }] = await Promise.all([
    db.select().from(shippingMethods).where(eq(shippingMethods.zoneId, zoneId)).orderBy(asc(shippingMethods.position), asc(shippingMethods.createdAt), asc(shippingMethods.id)),
    getStoreCurrency(db),
  ]);
  return rows.map((row) => toShippingMethod(row, minorUnits));
}

/** Every zone's methods in one read, by zone id, each list by position: for a page of all zones. */
export async function methodsByZone(db: Database): Promise<Map<string, ShippingMethod[]>> {
  const [rows, { minorUnits }] = await Promise.all([
    db.select().from(shippingMethods).orderBy(asc(shippingMethods.zoneId), asc(shippingMethods.position), asc(shippingMethods.createdAt), asc(shippingMethods.id)),
    getStoreCurrency(db),
  ]);
  const byZone = new Map<string, ShippingMethod[]>();
  for (const row of rows) byZone.set(row.zoneId, [...(byZone.get(row.zoneId) ?? []), toShippingMethod(row, minorUnits)]);
  return byZone;
}

export async function getShippingMethod(db: Database, zoneId: string, id: string): Promise<ShippingMethod> {
  const [row, { minorUnits }] = await Promise.all([methodRow(db, zoneId, id), getStoreCurrency(db)]);
  return toShippingMethod(row, minorUnits);
}

/** Methods a zone holds at most (see MAX_SHIPPING_ZONES): also the page size of a zone's method list. */
export const MAX_METHODS_PER_ZONE = 20;

export async function createShippingMethod(db: Database, zoneId: string, input: CreateShippingMethodInput, now = new Date()): Promise<ShippingMethod> {
  await getShippingZone(db, zoneId);
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(shippingMethods).where(eq(shippingMethods.zoneId, zoneId));
  if (n >= MAX_METHODS_PER_ZONE) throw new ApiError('CONFLICT', `A shipping zone holds at most ${MAX_METHODS_PER_ZONE} methods: delete or edit one instead`);
  const { minorUnits } = await getStoreCurrency(db);
  const stored = toStored(input, minorUnits);
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
    currencyRates: {},
    createdAt: ts,
    updatedAt: ts,
  };
  assertDeliveryDays(row);
  await db.insert(shippingMethods).values(row);
  return toShippingMethod(row, minorUnits);
}

export async function updateShippingMethod(db: Database, zoneId: string, id: string, patch: UpdateShippingMethodInput, now = new Date()): Promise<ShippingMethod> {
  const [current, { minorUnits }] = await Promise.all([methodRow(db, zoneId, id), getStoreCurrency(db)]);
  if (Object.keys(patch).length === 0) return toShippingMethod(current, minorUnits);
  const set = { ...patch, ...toStored(patch, minorUnits), updatedAt: now.toISOString() } as Partial<ShippingMethodRow>;
  const next = { ...current, ...set };
  assertDeliveryDays(next);
  await db.update(shippingMethods).set(set).where(eq(shippingMethods.id, id));
  return toShippingMethod(next, minorUnits);
}

export async function deleteShippingMethod(db: Database, zoneId: string, id: string): Promise<void> {
  await methodRow(db, zoneId, id);
  await db.delete(shippingMethods).where(eq(shippingMethods.id, id));
}
