import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type ShippingMethodRow, shippingMethods } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { toMajor, toMajorOrNull } from '../../lib/money';

/**
 * The settings' `shippingFlatRate` and `freeShippingThreshold`, deprecated since shipping zones: they
 * are aliases of the flat method migration 0050 made of them ("Standard" in the rest-of-world zone
 * "Everywhere"), kept for at least one version (docs/api.md, Shipping). Reading shows that method's
 * amount and `freeAbove`, null once it is deleted (or no longer flat, for the rate); writing changes
 * it, and is 409 once it is gone. Answers to a request that wrote them carry Deprecation and Sunset.
 */

export const LEGACY_METHOD_ID = 'smeth_standard';
export const LEGACY_FIELDS = ['shippingFlatRate', 'freeShippingThreshold'] as const;
const SUCCESSOR = '/api/settings/shipping-zones';

/** RFC 9745 `Deprecation` (when it was deprecated), RFC 8594 `Sunset` (not before), and where to go instead. */
export const DEPRECATION_HEADERS = {
  Deprecation: '@1795737600', // 2026-11-27
  Sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
  Link: `<${SUCCESSOR}>; rel="successor-version"`,
} as const;

export type LegacyMethod = Pick<ShippingMethodRow, 'rate' | 'freeAbove'> | undefined;

export const legacyMethodRead = (db: Database) =>
  db.select({ rate: shippingMethods.rate, freeAbove: shippingMethods.freeAbove }).from(shippingMethods).where(eq(shippingMethods.id, LEGACY_METHOD_ID));

/** The two fields as the settings show them, in major units of the default currency (`digits`). */
export function legacyShippingFields(method: LegacyMethod, digits: number) {
  return {
    shippingFlatRate: method?.rate.type === 'flat' ? toMajor(method.rate.amount, digits) : null,
    freeShippingThreshold: method ? toMajorOrNull(method.freeAbove, digits) : null,
  };
}

/** The statement that applies the fields (minor units) to the method, or 409 when they can no longer be applied. */
export function legacyShippingUpdate(db: Database, method: LegacyMethod, patch: { shippingFlatRate?: number; freeShippingThreshold?: number | null }, ts: string) {
  const fields = LEGACY_FIELDS.filter((f) => patch[f] !== undefined);
  if (fields.length === 0) return null;
  const gone = (why: string) =>
    ApiError.conflict(`${fields.join(' and ')} ${fields.length > 1 ? 'are' : 'is'} deprecated and ${why}: set shipping at ${SUCCESSOR}`, fields[0], {
      problem: `is deprecated and ${why}: set shipping at ${SUCCESSOR}`,
    });
  if (!method) throw gone("its shipping method (the migrated 'Standard') was deleted");
  if (patch.shippingFlatRate !== undefined && method.rate.type !== 'flat') throw gone("its shipping method (the migrated 'Standard') is no longer a flat rate");
  return db
    .update(shippingMethods)
    .set({
      ...(patch.shippingFlatRate !== undefined ? { rate: { type: 'flat' as const, amount: patch.shippingFlatRate } } : {}),
      ...(patch.freeShippingThreshold !== undefined ? { freeAbove: patch.freeShippingThreshold } : {}),
      updatedAt: ts,
    })
    .where(eq(shippingMethods.id, LEGACY_METHOD_ID));
}
