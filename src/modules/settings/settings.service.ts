import { and, eq, exists, getTableColumns, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { currencies, storeSettings } from '../../db/schema';
import { type EdgeSettings, keepEdgeSettings } from '../../middleware/edge-settings';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { toMinor } from '../../lib/money';
import { servedVersion } from '../../versions/versions';
import { type LegacyMethod, legacyMethodRead, legacyShippingFields, legacyShippingUpdate } from './legacy-shipping-settings';
import type { Settings, UpdateSettingsInput } from './settings.schemas';
import { amountProblem, defaultMinorUnits, STORE_ID } from './store-currency';

type SettingsRow = typeof storeSettings.$inferSelect;

function toSettings({ id: _id, shippingFlatRate: _rate, freeShippingThreshold: _threshold, ...row }: SettingsRow, method: LegacyMethod, digits: number): Settings {
  return { ...row, ...legacyShippingFields(method, digits) };
}

async function readSettings(db: Database) {
  const [[row], [method]] = await db.batch([
    db
      .select({ ...getTableColumns(storeSettings), digits: defaultMinorUnits })
      .from(storeSettings)
      .where(eq(storeSettings.id, STORE_ID))
      .limit(1),
    legacyMethodRead(db),
  ]);
  if (!row) throw new Error('The store settings row is missing (migrations/0005 creates it)');
  const { digits, ...settings } = row;
  return { row: settings, method, digits };
}

export async function getSettings(db: Database): Promise<Settings> {
  const { row, method, digits } = await readSettings(db);
  return toSettings(row, method, digits);
}

/** The currency a new default must be: enabled, at rate 1 and with the current default's minor units. */
async function checkNewDefault(db: Database, code: string, currentDigits: number): Promise<void> {
  const [target] = await db.select().from(currencies).where(eq(currencies.code, code)).limit(1);
  if (!target?.enabled) {
    throw ApiError.validation([{ field: 'defaultCurrency', problem: `must be an existing, enabled currency; '${code}' is ${target ? 'disabled' : 'unknown'}` }]);
  }
  if (target.exchangeRate !== '1') {
    throw ApiError.conflict(
      `${code} has exchange rate ${target.exchangeRate}: catalogue prices are not converted, so set its exchange rate to 1 (and re-express the other rates against it) before making it the default`,
      'defaultCurrency',
    );
  }
  if (target.minorUnits !== currentDigits) {
    throw ApiError.conflict(
      `${code} has ${target.minorUnits} minor digits and the current default has ${currentDigits}: prices are stored as minor units of the default currency and would change value`,
      'defaultCurrency',
    );
  }
}

/** Shipping amounts arrive in major units of the default currency, which fixes their decimals. */
function amountsToMinor(patch: UpdateSettingsInput, digits: number) {
  const errors: FieldProblem[] = [];
  const convert = (field: 'shippingFlatRate' | 'freeShippingThreshold', value: number) => {
    const problem = amountProblem(value, digits);
    if (problem) errors.push({ field, problem: problem });
    return problem ? 0 : toMinor(value, digits);
  };
  const { shippingFlatRate, freeShippingThreshold } = patch;
  const out = {
    ...(shippingFlatRate !== undefined ? { shippingFlatRate: convert('shippingFlatRate', shippingFlatRate) } : {}),
    ...(freeShippingThreshold !== undefined ? { freeShippingThreshold: freeShippingThreshold === null ? null : convert('freeShippingThreshold', freeShippingThreshold) } : {}),
  };
  if (errors.length) throw ApiError.validation(errors);
  return out;
}

export async function updateSettings(db: Database, patch: UpdateSettingsInput, now = new Date()): Promise<Settings> {
  const { row: current, method, digits } = await readSettings(db);
  const switching = patch.defaultCurrency !== undefined && patch.defaultCurrency !== current.defaultCurrency;
  if (switching) await checkNewDefault(db, patch.defaultCurrency!, digits);
  const { shippingFlatRate: _rate, freeShippingThreshold: _threshold, ...columns } = patch;
  const ts = now.toISOString();
  const legacy = amountsToMinor(patch, digits);
  const methodUpdate = legacyShippingUpdate(db, method, legacy, ts);
  const set: Partial<SettingsRow> = { ...columns, updatedAt: ts };
  // The new default must still qualify when the row is written, whatever happened since the check.
  const stillQualifies = switching
    ? exists(
        db
          .select({ one: sql`1` })
          .from(currencies)
          .where(and(eq(currencies.code, patch.defaultCurrency!), eq(currencies.enabled, true), eq(currencies.exchangeRate, '1'), eq(currencies.minorUnits, digits))),
      )
    : undefined;
  const [result] = await db.batch([
    db
      .update(storeSettings)
      .set(set)
      .where(and(eq(storeSettings.id, STORE_ID), stillQualifies)),
    ...(methodUpdate ? [methodUpdate] : []),
  ]);
  if (result.meta.changes === 0) throw ApiError.conflict(`Currency ${patch.defaultCurrency} changed meanwhile; retry`, 'defaultCurrency');
  const methodAfter = method && {
    rate: legacy.shippingFlatRate !== undefined ? { type: 'flat' as const, amount: legacy.shippingFlatRate } : method.rate,
    freeAbove: legacy.freeShippingThreshold !== undefined ? legacy.freeShippingThreshold : method.freeAbove,
  };
  const after = { ...current, ...set } as SettingsRow;
  keepEdgeSettings({ allowedOrigins: after.allowedOrigins, apiVersion: servedVersion(after.apiVersion), storeName: after.name }, now.getTime());
  return toSettings(after, methodAfter, digits);
}

/** What every request may need before its handler (src/middleware/edge-settings.ts): read when the isolate's kept copy is missing or old. */
export async function readEdgeSettings(db: Database): Promise<EdgeSettings> {
  const [row] = await db
    .select({ allowedOrigins: storeSettings.allowedOrigins, apiVersion: storeSettings.apiVersion, storeName: storeSettings.name })
    .from(storeSettings)
    .where(eq(storeSettings.id, STORE_ID))
    .limit(1);
  return { allowedOrigins: row?.allowedOrigins ?? [], apiVersion: servedVersion(row?.apiVersion), storeName: row?.storeName ?? 'Store' };
}
