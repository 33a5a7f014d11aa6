import { z } from '@hono/zod-openapi';
import { SHIPMENT_STATUSES, shipments } from '../../db/schema';
import { createSelectSchema, Timestamp } from '../../lib/schemas';

/** Shapes of shipments on the wire: the table, with the order lines (and quantities) it carries. */

export const ShipmentLineSchema = z.object({ orderLineId: z.string(), quantity: z.int() }).openapi('ShipmentLine');

export const ShipmentSchema = createSelectSchema(shipments, {
  shippedAt: Timestamp.nullable(),
  deliveredAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .extend({ lines: z.array(ShipmentLineSchema) })
  .openapi('Shipment', { description: '`status` moves `pending` -> `shipped` -> `delivered`, one step at a time.' });
export type Shipment = z.infer<typeof ShipmentSchema>;

const text = (max: number) => z.string().trim().min(1).max(max);
const tracking = {
  carrier: text(100).nullable().optional().openapi({ example: 'UPS' }),
  trackingNumber: text(100).nullable().optional().openapi({ example: '1Z999AA10123456784' }),
  trackingUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional(),
};

export const CreateShipmentBody = z
  .strictObject({
    ...tracking,
    lines: z
      .array(z.strictObject({ orderLineId: text(200), quantity: z.int().min(1).max(1_000_000_000) }))
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'What the parcel carries. Defaults to every unit of the order not yet in a shipment.' }),
    status: z.enum(['pending', 'shipped']).optional().openapi({ description: '`pending` (the default) or `shipped` at once.' }),
    shippingMethodId: text(200).optional().openapi({
      description: "The shipping method the parcel goes by: the order's (`shippingMethod.id`, the default) or any existing method (422 otherwise).",
      example: 'smeth_01JD0000000000000000000000',
    }),
  })
  .openapi('CreateShipment');
export type CreateShipmentInput = z.infer<typeof CreateShipmentBody>;

export const UpdateShipmentBody = z
  .strictObject({ ...tracking, status: z.enum(SHIPMENT_STATUSES).optional().openapi({ description: 'The next status only: `pending` -> `shipped` -> `delivered`.' }) })
  .openapi('UpdateShipment');
export type UpdateShipmentInput = z.infer<typeof UpdateShipmentBody>;
