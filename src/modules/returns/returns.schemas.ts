import { z } from '@hono/zod-openapi';
import { RETURN_REASONS, RETURN_STATUSES, returnLines, returns } from '../../db/schema';
import { createSelectSchema, Timestamp } from '../../lib/schemas';

/** Shapes of returns on the wire: the table, with the order lines (and quantities) coming back. */

export const ReturnLineSchema = createSelectSchema(returnLines, {
  reason: z.enum(RETURN_REASONS),
  restockedQuantity: z.int().openapi({ description: 'Units put back in stock when the return was received (staff choose how many).' }),
})
  .omit({ returnId: true })
  .openapi('ReturnLine');

export const ReturnSchema = createSelectSchema(returns, {
  status: z.enum(RETURN_STATUSES),
  customerId: z.string().nullable().openapi({ description: "The order's customer; null for a guest order." }),
  requestedBy: z.string().openapi({ description: 'Who asked: `user:<id>` or `key:<id>`.', example: 'user:user_01JD0000000000000000000000' }),
  approvedAt: Timestamp.nullable(),
  receivedAt: Timestamp.nullable(),
  refundedAt: Timestamp.nullable(),
  closedAt: Timestamp.nullable().openapi({ description: 'When it became `rejected`, `cancelled` or `refunded`.' }),
  exchangeOrderId: z.string().nullable().openapi({ description: 'The order it was exchanged for (`POST /api/returns/{id}/exchange`), if it was.' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .extend({ lines: z.array(ReturnLineSchema) })
  .openapi('Return', {
    description: '`status` moves `requested` -> `approved` -> `received` -> `refunded`; `requested` or `approved` may end `rejected` or `cancelled` instead (docs/returns.md).',
  });
export type Return = z.infer<typeof ReturnSchema>;

export const text = (max: number) => z.string().trim().min(1).max(max);
export const quantity = z.int().min(1).max(1_000_000_000);

export const CreateReturnBody = z
  .strictObject({
    lines: z
      .array(
        z.strictObject({
          orderLineId: text(200).openapi({ example: 'oline_01JD0000000000000000000000' }),
          quantity,
          reason: z.enum(RETURN_REASONS),
        }),
      )
      .min(1)
      .max(100)
      .openapi({ description: 'The order lines coming back, each at most once, with how many units and why.' }),
    note: text(2000).optional().openapi({ description: "The customer's words.", example: 'Half a size too small.' }),
  })
  .openapi('CreateReturn');
export type CreateReturnInput = z.infer<typeof CreateReturnBody>;

export const RETURN_MOVES = ['approved', 'rejected', 'received', 'refunded', 'cancelled'] as const;

export const UpdateReturnBody = z
  .strictObject({
    status: z.enum(RETURN_MOVES).openapi({ description: 'The status to move to (docs/returns.md): a move the return cannot make, the same status again included, is 409.' }),
    resolution: text(2000)
      .optional()
      .openapi({ description: "Staff's answer, kept on the return (why it was rejected, where to send the parcel).", example: 'Worn; not accepted.' }),
    restock: z
      .array(z.strictObject({ returnLineId: text(200).openapi({ example: 'retl_01JD0000000000000000000000' }), quantity }))
      .max(100)
      .optional()
      .openapi({
        description:
          "With `received` only: the units of each line put back in stock (at most the line's quantity; each line at most once). Lines not named are not restocked (damaged goods). Defaults to none.",
      }),
  })
  .openapi('UpdateReturn');
export type UpdateReturnInput = z.infer<typeof UpdateReturnBody>;
