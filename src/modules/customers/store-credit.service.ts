import { and, count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { currencies, type StoreCreditEntryRow, storeCreditBalances, storeCreditEntries, users } from '../../db/schema';
import { withGuards } from '../../lib/db-guards';
import { ApiError } from '../../lib/errors';
import { hasAtMostDecimals, toMajor, toMinor } from '../../lib/money';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { isCustomer } from './customers.service';
import { creditEntry } from '../ledger';
import type { storeCreditListQuery } from './store-credit.query';
import type { AdjustStoreCreditInput, StoreCreditEntry } from './store-credit.schemas';

const DEFAULT_DIGITS = 2;

function toEntry({ customerId: _customer, ...row }: StoreCreditEntryRow, digits: number | null): StoreCreditEntry {
  const d = digits ?? DEFAULT_DIGITS;
  return { ...row, amount: toMajor(row.amount, d), balanceAfter: toMajor(row.balanceAfter, d) };
}

const customerExists = (db: Database, customerId: string) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, customerId), isCustomer));

/** A customer's balances (every currency it has held credit in) and a page of its entries, newest first; 404 when there is no such customer. */
export async function getStoreCredit(db: Database, customerId: string, query: ParsedListQuery<typeof storeCreditListQuery.filters>, config: typeof storeCreditListQuery) {
  const plan = listPlan(config, query, [eq(storeCreditEntries.customerId, customerId)]);
  const [customer, balances, rows, totals] = await db.batch([
    customerExists(db, customerId),
    db
      .select({ currency: storeCreditBalances.currency, balance: storeCreditBalances.balance, digits: currencies.minorUnits })
      .from(storeCreditBalances)
      .leftJoin(currencies, eq(currencies.code, storeCreditBalances.currency))
      .where(eq(storeCreditBalances.customerId, customerId))
      .orderBy(storeCreditBalances.currency),
    db
      .select({ entry: storeCreditEntries, digits: currencies.minorUnits })
      .from(storeCreditEntries)
      .leftJoin(currencies, eq(currencies.code, storeCreditEntries.currency))
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(storeCreditEntries).where(plan.matching),
  ]);
  if (!customer[0]) throw ApiError.notFound('Customer', customerId);
  return {
    balances: balances.map((b) => ({ currency: b.currency, balance: toMajor(b.balance, b.digits ?? DEFAULT_DIGITS) })),
    items: rows.map((r) => toEntry(r.entry, r.digits)),
    total: totals[0]!.total,
  };
}

/** Staff's adjustment: one entry of reason `adjustment`; taking more than the balance is 409 (the ledger's guard). */
export async function adjustStoreCredit(db: Database, customerId: string, input: AdjustStoreCreditInput, { actor, now = new Date() }: { actor: string; now?: Date }) {
  const [[customer], [currency]] = await db.batch([
    customerExists(db, customerId),
    db.select({ minorUnits: currencies.minorUnits }).from(currencies).where(eq(currencies.code, input.currency)),
  ]);
  if (!customer) throw ApiError.notFound('Customer', customerId);
  if (!currency) throw ApiError.validation([{ field: 'currency', problem: `'${input.currency}' is not one of the store's currencies`, code: 'not_found' }]);
  if (!hasAtMostDecimals(Math.abs(input.amount), currency.minorUnits))
    throw ApiError.validation([{ field: 'amount', problem: `must have at most ${currency.minorUnits} decimals in ${input.currency}` }]);
  const amount = Math.sign(input.amount) * toMinor(Math.abs(input.amount), currency.minorUnits);
  const entry = creditEntry(db, { customerId, currency: input.currency, amount, reason: 'adjustment', note: input.note, actor }, currency.minorUnits, now);
  await withGuards(() => db.batch(entry.statements as never), {
    insufficient_store_credit: () => ApiError.conflict(`The customer's ${input.currency} store credit is less than ${toMajor(-amount, currency.minorUnits)}`, 'amount'),
  });
  const row = await db.query.storeCreditEntries.findFirst({ where: eq(storeCreditEntries.id, entry.id) });
  return toEntry(row!, currency.minorUnits);
}
