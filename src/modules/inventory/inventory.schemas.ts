import { z } from '@hono/zod-openapi';
import { type INVENTORY_REASONS, inventoryAdjustments } from '../../db/schema';
import { createSelectSchema, Timestamp } from '../../lib/schemas';

/** Stock per variant, with the threshold in force and whether the variant is at or below it. */
export const InventoryItemSchema = z
  .object({
    variantId: z.string(),
    productId: z.string(),
    productName: z.string(),
    name: z.string().nullable().openapi({ description: "The variant's own name, if it has one." }),
    sku: z.string().nullable(),
    options: z.record(z.string(), z.string()),
    stock: z.int(),
    lowStockThreshold: z.int().openapi({ description: "The threshold in force: the variant's own, else its product's, else the store's." }),
    low: z.boolean().openapi({ description: 'Stock is at or below `lowStockThreshold`.' }),
  })
  .openapi('InventoryItem');
export type InventoryItem = z.infer<typeof InventoryItemSchema>;

export const AdjustmentSchema = createSelectSchema(inventoryAdjustments, { createdAt: Timestamp }).openapi('InventoryAdjustment', {
  description:
    'One stock change: `order` and `cancellation` come from orders, the rest from people. `actor` is `user:<id>`, `key:<id>`, `guest:<cartId>` (a guest checkout) or `system`.',
});
export type Adjustment = z.infer<typeof AdjustmentSchema>;

export const AdjustmentResultSchema = AdjustmentSchema.extend({ inventory: InventoryItemSchema }).openapi('InventoryAdjustmentResult');

/** Reasons a person may give; `order` and `cancellation` are written by orders alone. */
export const MANUAL_REASONS = ['restock', 'correction', 'damage', 'return'] as const satisfies readonly (typeof INVENTORY_REASONS)[number][];

export const CreateAdjustmentBody = z
  .strictObject({
    delta: z
      .int()
      .min(-1_000_000_000)
      .max(1_000_000_000)
      .refine((n) => n !== 0, 'must not be zero')
      .openapi({ description: 'Units to add (positive) or take out (negative).', example: 12 }),
    reason: z.enum(MANUAL_REASONS),
    note: z.string().trim().min(1).max(500).optional(),
  })
  .openapi('CreateInventoryAdjustment');
export type CreateAdjustmentInput = z.infer<typeof CreateAdjustmentBody>;
