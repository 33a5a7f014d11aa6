import { z } from '@hono/zod-openapi';
import { Timestamp } from '../../lib/schemas';

export const AUDIT_ACTIONS = ['create', 'update', 'delete'] as const;
export const AUDIT_ACTOR_KINDS = ['user', 'api_key'] as const;

const Change = z
  .object({ before: z.unknown().optional(), after: z.unknown().optional() })
  .openapi('AuditChange', { description: '`after` on create, `before` on delete, both on update.' });

export const AuditEntrySchema = z
  .object({
    id: z.int().openapi({ example: 42, description: 'Grows with every entry: the order the log was written in.' }),
    actor: z
      .object({
        kind: z.enum(AUDIT_ACTOR_KINDS),
        id: z.string().openapi({ example: 'key_01JD0000000000000000000000', description: 'The user id or the API key id.' }),
        label: z.string().nullable().openapi({ example: 'sk_Tu3NFAa4', description: "The user's email or the key's visible prefix, as they were then." }),
        role: z.string().nullable().openapi({ example: 'admin', description: "The user's role, or the key's role (null for a key with its own permissions)." }),
      })
      .openapi('AuditActor'),
    resource: z.string().openapi({ example: 'page', description: 'What was written: page, product, variant, order, shipment, user, api_key, ...' }),
    resourceId: z.string().openapi({ example: 'page_01JD0000000000000000000000' }),
    action: z.enum(AUDIT_ACTIONS),
    changes: z.record(z.string(), Change).openapi({
      description:
        'Per field (API names, values as stored: amounts in minor units): every field on create and delete, the changed ones on update. ' +
        '`createdAt`/`updatedAt` are left out; secrets (password and key hashes, signing secrets, token hashes) show as `[redacted]`.',
      example: { status: { before: 'draft', after: 'published' } },
    }),
    requestId: z.string().nullable().openapi({ description: 'The X-Request-Id of the request that wrote it: entries of one request share it.' }),
    method: z.string().nullable().openapi({ example: 'PATCH' }),
    path: z.string().nullable().openapi({ example: '/api/pages/page_01JD0000000000000000000000' }),
    createdAt: Timestamp,
  })
  .openapi('AuditEntry', {
    description:
      'One row created, changed or deleted by a staff user, a vendor user or an API key, recorded in the same transaction as the write. Entries are never changed or deleted.',
  });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
