import { z } from '@hono/zod-openapi';
import { storeCreditEntries } from '../../db/schema';
import { MAX_MAJOR_AMOUNT } from '../../lib/money';
import { createSelectSchema, Timestamp } from '../../lib/schemas';
import { CurrencyCode } from '../settings/schemas';

/** Shapes of store credit on the wire: amounts in major units of the entry's currency. */

export const StoreCreditEntrySchema = createSelectSchema(storeCreditEntries, {
  amount: z.number().openapi({ description: 'The change, in major units of `currency`: positive adds credit, negative spends it.', example: 12.5 }),
  balanceAfter: z.number().openapi({ description: 'The balance in `currency` right after this entry.', example: 12.5 }),
  reason: z.string().openapi({ description: "`refund`, `spent` (a `store_credit` payment), `adjustment` (staff), or the store's words.", example: 'refund' }),
  createdAt: Timestamp,
})
  .omit({ customerId: true })
  .openapi('StoreCreditEntry', {
    description: "An entry of a customer's store credit ledger, linked to the order, refund, return or payment that caused it. `actor`: `user:<id>`, `key:<id>` or `system`.",
  });
export type StoreCreditEntry = z.infer<typeof StoreCreditEntrySchema>;

export const StoreCreditBalanceSchema = z
  .object({ currency: z.string().openapi({ example: 'EUR' }), balance: z.number().openapi({ description: 'Major units; never below zero.', example: 12.5 }) })
  .openapi('StoreCreditBalance');

export const AdjustStoreCreditBody = z
  .strictObject({
    amount: z
      .number()
      .min(-MAX_MAJOR_AMOUNT)
      .max(MAX_MAJOR_AMOUNT)
      .refine((n) => n !== 0, 'must not be 0')
      .openapi({ description: 'Major units of `currency`: positive adds credit, negative takes it away (never below zero: 409).', example: 10 }),
    currency: CurrencyCode,
    note: z.string().trim().min(1).max(500).openapi({ description: 'Why, kept on the entry.', example: 'Goodwill for a late delivery' }),
  })
  .openapi('AdjustStoreCredit');
export type AdjustStoreCreditInput = z.infer<typeof AdjustStoreCreditBody>;
