import { sql } from 'drizzle-orm';
import { INVENTORY_REASONS, inventoryAdjustments, productVariants, products } from '../../db/schema';
import { booleanFilter, defineListQuery, enumFilter, exactFilter, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { effectiveThreshold } from './stock';
import { AdjustmentSchema, InventoryItemSchema } from './inventory.schemas';

export const inventoryListQuery = defineListQuery({
  resource: 'inventory item',
  id: productVariants.id,
  sortable: { stock: productVariants.stock, sku: productVariants.sku, id: productVariants.id },
  defaultSort: [{ field: 'stock', direction: 'asc' }],
  selectable: fieldTreeFromSchema(InventoryItemSchema),
  filters: {
    low: {
      ...booleanFilter(productVariants.stock, 'At or below the low-stock threshold in force (true), or above it (false).'),
      where: (low: boolean) => (low ? sql`${productVariants.stock} <= ${effectiveThreshold}` : sql`${productVariants.stock} > ${effectiveThreshold}`),
    },
    product: exactFilter(productVariants.productId, 'Variants of this product (id).'),
    q: searchFilter([productVariants.sku, products.name, productVariants.name], 'Search in SKU, product name and variant name, case-insensitive.'),
  },
});

export const adjustmentListQuery = defineListQuery({
  resource: 'inventory adjustment',
  id: inventoryAdjustments.id,
  sortable: { createdAt: inventoryAdjustments.createdAt, id: inventoryAdjustments.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(AdjustmentSchema),
  filters: { reason: enumFilter(inventoryAdjustments.reason, INVENTORY_REASONS, 'Why the stock changed.') },
});
