import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { currencies, type GiftCardRow, giftCards, giftCardTransactions } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { toMajor } from '../../lib/money';
import { listTable, type ParsedListQuery } from '../../lib/query';
import { amountInMinor, issueStatements } from '../ledger';
import { giftCardListQuery } from './gift-cards.query';
import type { CreateGiftCardInput, GiftCard, GiftCardViewStatus, UpdateGiftCardInput } from './gift-cards.schemas';

/** Decimals of each of the store's currencies, for showing cards' amounts. */
async function digitsByCurrency(db: Database): Promise<Map<string, number>> {
  const rows = await db.select({ code: currencies.code, minorUnits: currencies.minorUnits }).from(currencies);
  return new Map(rows.map((r) => [r.code, r.minorUnits]));
}

export function giftCardStatus(row: Pick<GiftCardRow, 'status' | 'expiresAt'>, now = new Date()): GiftCardViewStatus {
  if (row.status === 'disabled') return 'disabled';
  return row.expiresAt && row.expiresAt <= now.toISOString() ? 'expired' : 'active';
}

export function toGiftCard({ codeHash: _hash, ...row }: GiftCardRow, digits: number, now = new Date()): GiftCard {
  return { ...row, initialAmount: toMajor(row.initialAmount, digits), balance: toMajor(row.balance, digits), status: giftCardStatus(row, now) };
}

export async function listGiftCards(db: Database, query: ParsedListQuery<typeof giftCardListQuery.filters>) {
  const [{ items, total }, digits] = await Promise.all([listTable<GiftCardRow, typeof giftCardListQuery.filters>(db, giftCards, giftCardListQuery, query), digitsByCurrency(db)]);
  return { items: items.map((row) => toGiftCard(row, digits.get(row.currency) ?? 2)), total };
}

export async function getGiftCard(db: Database, id: string) {
  const [[row], transactions, digits] = await Promise.all([
    db.select().from(giftCards).where(eq(giftCards.id, id)),
    db.select().from(giftCardTransactions).where(eq(giftCardTransactions.giftCardId, id)).orderBy(asc(giftCardTransactions.createdAt), asc(giftCardTransactions.id)),
    digitsByCurrency(db),
  ]);
  if (!row) throw ApiError.notFound('Gift card', id);
  const d = digits.get(row.currency) ?? 2;
  return {
    ...toGiftCard(row, d),
    transactions: transactions.map(({ giftCardId: _card, ...t }) => ({ ...t, amount: toMajor(t.amount, d), balanceAfter: toMajor(t.balanceAfter, d) })),
  };
}

/** Staff issue a card in one of the store's enabled currencies; the answer carries its code, the only time it is shown. */
export async function issueGiftCard(db: Database, secret: string, input: CreateGiftCardInput, issuedBy: string, now = new Date()) {
  const currency = await db.query.currencies.findFirst({ where: eq(currencies.code, input.currency) });
  if (!currency?.enabled) throw ApiError.validation([{ field: 'currency', problem: `no enabled currency '${input.currency}' (GET /api/settings/currencies)`, code: 'not_found' }]);
  const amount = amountInMinor(input.amount, currency.minorUnits);
  const { code, row, statements } = await issueStatements(db, secret, { ...input, amount, issuedBy }, currency.minorUnits, now);
  await db.batch(statements);
  return { ...toGiftCard(row, currency.minorUnits, now), code };
}

/** Disables or enables a card, or changes its expiry; its balance is only ever changed by transactions. */
export async function updateGiftCard(db: Database, id: string, patch: UpdateGiftCardInput, now = new Date()) {
  const set = {
    ...(patch.status !== undefined ? { status: patch.status } : {}),
    ...(patch.expiresAt !== undefined ? { expiresAt: patch.expiresAt } : {}),
    updatedAt: now.toISOString(),
  };
  const [row] = await db.update(giftCards).set(set).where(eq(giftCards.id, id)).returning();
  if (!row) throw ApiError.notFound('Gift card', id);
  const digits = await digitsByCurrency(db);
  return toGiftCard(row, digits.get(row.currency) ?? 2, now);
}
