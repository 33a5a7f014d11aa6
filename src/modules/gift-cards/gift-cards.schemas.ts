import { z } from '@hono/zod-openapi';
import { giftCards, giftCardTransactions } from '../../db/schema';
import { MAX_MAJOR_AMOUNT } from '../../lib/money';
import { createSelectSchema, Instant, Timestamp } from '../../lib/schemas';
import { Email } from '../users/schemas';

export const GIFT_CARD_VIEW_STATUSES = ['active', 'disabled', 'expired'] as const;
export type GiftCardViewStatus = (typeof GIFT_CARD_VIEW_STATUSES)[number];
export const GIFT_CARD_STATUS_DESCRIPTION = '`active` (can pay), `disabled` (by staff), `expired` (active but past `expiresAt`).';

const major = (description: string) => z.number().openapi({ description: `${description}, in major units of \`currency\`.`, example: 50 });

/** A card as staff see it: never its code, nor the code's hash. */
export const GiftCardSchema = createSelectSchema(giftCards, {
  last4: z.string().openapi({ description: 'The last four characters of the code, to tell cards apart.', example: 'Q7XM' }),
  initialAmount: major('What the card was issued for'),
  balance: major('What is left on it'),
  expiresAt: Timestamp.nullable(),
  issuedBy: z.string().openapi({ description: '`user:<id>` or `key:<id>` for a card staff issued, `system` for one bought as a product.' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .omit({ codeHash: true })
  .extend({ status: z.enum(GIFT_CARD_VIEW_STATUSES).openapi({ description: GIFT_CARD_STATUS_DESCRIPTION }) })
  .openapi('GiftCard');
export type GiftCard = z.infer<typeof GiftCardSchema>;

export const GiftCardTransactionSchema = createSelectSchema(giftCardTransactions, {
  amount: major('The change to the balance (negative spends)'),
  balanceAfter: major('The balance right after it'),
  kind: z.string().openapi({
    description:
      '`issued`, `spent` (a payment), `refunded` (a refund of a payment it made), `adjustment`; for a card bought as a product, `revoked` (a refund, return, exchange or cancellation of the line that bought it took its value back) and `reinstated` (that refund failed: the value is back).',
  }),
  createdAt: Timestamp,
})
  .omit({ giftCardId: true })
  .openapi('GiftCardTransaction');

export const GiftCardDetailSchema = GiftCardSchema.extend({
  transactions: z.array(GiftCardTransactionSchema).openapi({ description: 'Every change of the balance, oldest first.' }),
}).openapi('GiftCardDetail');

export const IssuedGiftCardSchema = GiftCardSchema.extend({
  code: z.string().openapi({ description: 'The code. Shown only in this response (and in the email to `recipientEmail`): hand it over now.', example: 'K7QZ-4M2X-9DPA-Q7XM' }),
}).openapi('IssuedGiftCard');

const Amount = z.number().positive().max(MAX_MAJOR_AMOUNT);
const future = (value: string) => value > new Date().toISOString();

export const CreateGiftCardBody = z
  .strictObject({
    amount: Amount.openapi({ description: 'Major units of `currency` (at most its decimals).', example: 50 }),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .length(3)
      .openapi({ description: "One of the store's currencies (`GET /api/settings/currencies`); the card pays only carts and orders in it.", example: 'EUR' }),
    expiresAt: Instant.refine(future, 'must be in the future').optional(),
    recipientEmail: Email.optional().openapi({ description: 'The code is emailed there (template `gift_card.issued`).' }),
    recipientName: z.string().trim().min(1).max(200).optional(),
    message: z.string().trim().min(1).max(1000).optional().openapi({ description: 'A note for the recipient, in the email.' }),
  })
  .openapi('CreateGiftCard');
export type CreateGiftCardInput = z.infer<typeof CreateGiftCardBody>;

export const UpdateGiftCardBody = z
  .strictObject({
    status: z.enum(['active', 'disabled']).optional().openapi({ description: 'A disabled card pays nothing until enabled again; its balance stays.' }),
    expiresAt: Instant.nullable().optional().openapi({ description: 'null: never expires.' }),
  })
  .openapi('UpdateGiftCard');
export type UpdateGiftCardInput = z.infer<typeof UpdateGiftCardBody>;

/** A code as a shopper types it: case, spaces and dashes do not matter. */
export const GiftCardCode = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .openapi({ description: 'The gift card code (case, spaces and dashes do not matter).', example: 'K7QZ-4M2X-9DPA-Q7XM' });
