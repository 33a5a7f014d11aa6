import { z } from '@hono/zod-openapi';

// Fields many event payloads share (src/modules/*/*.events.ts), documented the same everywhere.

/** An id, with an example of its prefix. */
export const idField = (example: string, description?: string) => z.string().openapi({ example, ...(description ? { description } : {}) });
export const customerIdField = idField('user_01JD0000000000000000000000', "The customer's account; null for a guest.").nullable();
export const currencyField = z.string().openapi({ example: 'EUR' });
