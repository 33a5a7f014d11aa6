import { count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type ShippingZoneRow, shippingZones } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { listTable, type ParsedListQuery } from '../../lib/query';
import { shippingZoneListQuery } from './zones.query';
import type { CreateShippingZoneInput, ShippingZone, UpdateShippingZoneInput } from './zones.schemas';

/** The places a zone covers must fit its kind: the rest of the world lists none, any other zone a country or region. */
function placeProblems(zone: Pick<ShippingZoneRow, 'countries' | 'regions' | 'postcodes' | 'restOfWorld'>): FieldProblem[] {
  if (zone.restOfWorld) {
    return (['countries', 'regions', 'postcodes'] as const)
      .filter((field) => zone[field].length > 0)
      .map((field) => ({ field, problem: 'must be empty for the rest-of-world zone (it serves every address no other zone serves)' }));
  }
  if (zone.countries.length === 0 && zone.regions.length === 0) {
    const problem = 'needs at least one country or region (or set restOfWorld)';
    return [
      { field: 'countries', problem, code: 'too_small' },
      { field: 'regions', problem, code: 'too_small' },
    ];
  }
  return [];
}

/** The one rest-of-world zone: the database refuses a second (a partial unique index), answered as 409. */
const ONE_REST_OF_WORLD = {
  'shipping_zones.rest_of_world': {
    field: 'restOfWorld',
    message: 'The store already has a rest-of-world zone; change that one instead',
    problem: 'is already true for another zone (at most one zone is the rest of the world)',
  },
};

export async function listShippingZones(db: Database, query: ParsedListQuery<typeof shippingZoneListQuery.filters>) {
  return listTable<ShippingZoneRow, typeof shippingZoneListQuery.filters>(db, shippingZones, shippingZoneListQuery, query);
}

export async function getShippingZone(db: Database, id: string): Promise<ShippingZone> {
  const [row] = await db.select().from(shippingZones).where(eq(shippingZones.id, id)).limit(1);
  if (!row) throw ApiError.notFound('Shipping zone', id);
  return row;
}

/**
 * Every quote reads all zones and methods (src/modules/checkout/quote.ts), so a store keeps at most
 * this many zones, each with at most MAX_METHODS_PER_ZONE methods: a bound on what each uncached
 * quote reads, far above what a shop selling to the world sets up.
 */
export const MAX_SHIPPING_ZONES = 100;

export async function createShippingZone(db: Database, input: CreateShippingZoneInput, now = new Date()): Promise<ShippingZone> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(shippingZones);
  if (n >= MAX_SHIPPING_ZONES) throw new ApiError('CONFLICT', `A store has at most ${MAX_SHIPPING_ZONES} shipping zones: add countries, regions or postcodes to one instead`);
  const ts = now.toISOString();
  const row: ShippingZoneRow = {
    id: newId(ID_PREFIX.shippingZone, now.getTime()),
    name: input.name,
    countries: input.countries ?? [],
    regions: input.regions ?? [],
    postcodes: input.postcodes ?? [],
    restOfWorld: input.restOfWorld ?? false,
    createdAt: ts,
    updatedAt: ts,
  };
  const problems = placeProblems(row);
  if (problems.length) throw ApiError.validation(problems);
  await withUniqueConflicts(ONE_REST_OF_WORLD, () => db.insert(shippingZones).values(row));
  return row;
}

export async function updateShippingZone(db: Database, id: string, patch: UpdateShippingZoneInput, now = new Date()): Promise<ShippingZone> {
  const current = await getShippingZone(db, id);
  if (Object.keys(patch).length === 0) return current;
  const next = { ...current, ...patch, updatedAt: now.toISOString() };
  const problems = placeProblems(next);
  if (problems.length) throw ApiError.validation(problems);
  await withUniqueConflicts(ONE_REST_OF_WORLD, () =>
    db
      .update(shippingZones)
      .set({ ...patch, updatedAt: next.updatedAt })
      .where(eq(shippingZones.id, id)),
  );
  return next;
}

/** Deletes the zone and its methods; orders placed keep the method they were charged. */
export async function deleteShippingZone(db: Database, id: string): Promise<void> {
  await getShippingZone(db, id);
  await db.delete(shippingZones).where(eq(shippingZones.id, id));
}
