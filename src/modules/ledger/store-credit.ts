import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../../db/client';
import { type StoreCreditEntryRow, storeCreditEntries } from '../../db/schema';
import { outboxEvent } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor } from '../../lib/money';

/**
 * A customer's store credit is a ledger (store_credit_entries): every change is an entry, written
 * in the same batch as what causes it (a refund, a payment, staff's adjustment), with its
 * `store_credit.changed` event. The balance per currency is kept by the entries' trigger
 * (migrations/0056_after_sale.sql), which aborts the batch with guard:insufficient_store_credit
 * rather than let it go below zero: two checkouts spending one balance at once never take more
 * than it holds, as D1 runs batches one at a time.
 */
export type NewCreditEntry = Pick<StoreCreditEntryRow, 'customerId' | 'currency' | 'amount' | 'reason' | 'actor'> &
  Partial<Pick<StoreCreditEntryRow, 'note' | 'orderId' | 'returnId' | 'refundId' | 'paymentId'>>;

/** The entry's insert and its event, for the caller's batch, and the entry's id; `digits` are the currency's minor-unit digits (for the event's amount). */
export function creditEntry(db: Database, entry: NewCreditEntry, digits: number, now = new Date()): { id: string; statements: BatchItem<'sqlite'>[] } {
  const row: StoreCreditEntryRow = {
    id: newId(ID_PREFIX.storeCreditEntry, now.getTime()),
    note: null,
    orderId: null,
    returnId: null,
    refundId: null,
    paymentId: null,
    ...entry,
    balanceAfter: 0,
    createdAt: now.toISOString(),
  };
  const statements = [
    db.insert(storeCreditEntries).values(row) as unknown as BatchItem<'sqlite'>,
    outboxEvent(
      db,
      'store_credit.changed',
      {
        entryId: row.id,
        customerId: row.customerId,
        amount: toMajor(row.amount, digits),
        currency: row.currency,
        reason: row.reason,
        orderId: row.orderId,
        refundId: row.refundId,
        returnId: row.returnId,
        paymentId: row.paymentId,
      },
      now,
    ) as unknown as BatchItem<'sqlite'>,
  ];
  return { id: row.id, statements };
}
