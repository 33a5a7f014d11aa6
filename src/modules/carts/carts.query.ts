import { z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { CART_STATUSES, cartLines, carts, productVariants } from '../../db/schema';
import { createdAfterFilter, defineListQuery, enumFilter, exactFilter, type FilterSpec, fieldTreeFromSchema, instantBeforeFilter, moneyBoundFilter } from '../../lib/query';
import { CartSchema } from './carts.schemas';

/** The cart's lines at today's catalogue prices, in minor units of the store's default currency (what `min_total` compares). */
export const linesValue = sql<number>`(SELECT coalesce(sum(${cartLines.quantity} * ${productVariants.price}), 0) FROM ${cartLines} JOIN ${productVariants} ON ${productVariants.id} = ${cartLines.variantId} WHERE ${cartLines.cartId} = ${carts.id})`;

/** `email=`: the cart's contact email, compared without regard to case. */
const emailFilter: FilterSpec<string | undefined> = {
  schema: z.string().min(1).max(254).optional().openapi({ description: "The cart's contact email, any case.", example: 'ada@example.com' }) as z.ZodType<
    string | undefined,
    string | undefined
  >,
  where: (email) => sql`lower(${carts.email}) = ${email.toLowerCase()}`,
};

/** Staff's list of every cart (`GET /api/carts`): open ones, converted ones, and how long each has been idle. */
export const cartListQuery = defineListQuery({
  resource: 'cart',
  id: carts.id,
  sortable: { createdAt: carts.createdAt, updatedAt: carts.updatedAt, id: carts.id },
  defaultSort: [{ field: 'updatedAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(CartSchema),
  filters: {
    status: enumFilter(carts.status, CART_STATUSES, 'Cart status.'),
    customer: exactFilter(carts.customerId, "The customer's id (`usr_...`): that customer's carts."),
    email: emailFilter,
    created_after: createdAfterFilter(carts.createdAt),
    updated_before: instantBeforeFilter(
      carts.updatedAt,
      'Last changed before this moment: carts idle since then. A day (YYYY-MM-DD, its start) or an ISO 8601 time with its offset (2026-11-25T09:30:00Z).',
    ),
    min_total: moneyBoundFilter(
      linesValue,
      'min',
      "Lines worth at least this much at today's catalogue prices, in the store's default currency, before discounts, tax and shipping.",
    ),
  },
});
