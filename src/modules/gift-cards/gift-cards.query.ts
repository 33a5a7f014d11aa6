import { z } from '@hono/zod-openapi';
import { and, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import { giftCards } from '../../db/schema';
import { defineListQuery, exactFilter, type FilterSpec, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { GIFT_CARD_STATUS_DESCRIPTION, GIFT_CARD_VIEW_STATUSES, type GiftCardViewStatus, GiftCardSchema } from './gift-cards.schemas';

// Timestamps are stored as toISOString() text, which this SQL expression matches, so they compare as text.
const sqlNow = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
const STATUS_WHERE: Record<GiftCardViewStatus, SQL | undefined> = {
  active: and(eq(giftCards.status, 'active'), or(isNull(giftCards.expiresAt), sql`${giftCards.expiresAt} > ${sqlNow}`)),
  disabled: eq(giftCards.status, 'disabled'),
  expired: and(eq(giftCards.status, 'active'), sql`${giftCards.expiresAt} <= ${sqlNow}`),
};

const statusFilter: FilterSpec<GiftCardViewStatus | undefined> = {
  schema: z
    .enum(GIFT_CARD_VIEW_STATUSES)
    .optional()
    .openapi({ description: `Status now: ${GIFT_CARD_STATUS_DESCRIPTION}` }),
  where: (status) => STATUS_WHERE[status],
};

export const giftCardListQuery = defineListQuery({
  resource: 'gift card',
  id: giftCards.id,
  sortable: { createdAt: giftCards.createdAt, balance: giftCards.balance, expiresAt: giftCards.expiresAt, id: giftCards.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(GiftCardSchema),
  filters: {
    status: statusFilter,
    currency: exactFilter(giftCards.currency, 'ISO 4217 code of the card.'),
    orderId: exactFilter(giftCards.orderId, 'Cards bought by this order.'),
    q: searchFilter([giftCards.last4, giftCards.recipientEmail, giftCards.recipientName], 'Search in the last four characters of the code and the recipient, case-insensitive.'),
  },
});
