import { z } from '@hono/zod-openapi';
import { apiKeys } from '../../db/schema';
import { Permissions } from '../../lib/schemas';
import { createInsertSchema, createSelectSchema, Timestamp } from '../../lib/schemas';
import { AllowedOrigins } from '../../lib/schemas';
import { ApiVersion } from '../../versions/schemas';

export const API_KEY_STATUSES = ['active', 'revoked', 'expired'] as const;

const KEY_TYPE_DESCRIPTION =
  '`secret` (`sk_...`, the default): for servers, holding a role or permissions; never put it in a web page. ' +
  '`publishable` (`pk_...`): safe in browser code. It can do what a shopper without an account can (catalogue, search and content reads, ' +
  'carts and checkout, sign-up, sign-in and password reset) and nothing more; it is refused (403) from a web origin not in its ' +
  '`allowedOrigins`, and its requests are counted per shopper network (an IPv4 address, an IPv6 /64), each with the authenticated limit. ' +
  'A signed-in shopper sends its own token instead.';

const KEY_VERSION_DESCRIPTION =
  "The API version (docs/versioning.md) the key's requests are answered in when they send no `Store-Version` header: the store's default version when the key was minted, unless given. " +
  'A change reaches every server within a minute.';

/** A key as listed: never the key itself or its hash. */
export const ApiKeySchema = createSelectSchema(apiKeys, {
  permissions: z.array(z.string()).openapi({ description: "The key's own permissions (empty for a key that holds a role)." }),
  prefix: z.string().openapi({ description: 'The visible start of the key, to recognise it.', example: 'sk_4fQ9xZ2a' }),
  createdBy: z.string().nullable().openapi({ description: 'Who created it: `key:<id>` or `user:<id>`.', example: 'user_01JD0000000000000000000000' }),
  createdAt: Timestamp,
  expiresAt: Timestamp.nullable(),
  revokedAt: Timestamp.nullable(),
  lastUsedAt: Timestamp.nullable().openapi({ description: 'Kept to the minute.' }),
  ownerId: z
    .string()
    .nullable()
    .openapi({
      description:
        'The user on whose authority the key exists: who minted it, or the owner of the key that minted it; null for keys made by `npm run admin:key` or the dev command. ' +
        "While the owner is disabled or no longer holds the key's permissions, the key is suspended (401); deleting the owner revokes it.",
    }),
  vendorId: z.string().nullable().openapi({ description: 'For keys of the vendor role: the vendor the key acts for, scoped like its users.' }),
  type: z.enum(['secret', 'publishable']).openapi({ description: KEY_TYPE_DESCRIPTION }),
  allowedOrigins: z.array(z.string()).openapi({ description: 'For a publishable key: the web origins it may be used from (empty for a secret key).' }),
  apiVersion: ApiVersion.openapi({ description: KEY_VERSION_DESCRIPTION }),
})
  .omit({ keyHash: true, roleId: true, updatedAt: true })
  .extend({
    role: z.string().nullable().openapi({ description: 'The role whose permissions the key holds (read on every request), or null.' }),
    status: z.enum(API_KEY_STATUSES),
  })
  .openapi('ApiKey');
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().openapi({ description: 'The key. Shown only in this response: store it now.', example: 'sk_4fQ9xZ2a...' }),
}).openapi('CreatedApiKey');

const fields = {
  name: z.string().trim().min(1).max(200).openapi({ example: 'Warehouse sync' }),
  permissions: Permissions.refine((list) => list.length > 0, 'must hold at least one permission'),
  expiresAt: z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value).toISOString())
    .refine((value) => value > new Date().toISOString(), 'must be in the future')
    .openapi({ example: '2027-01-01T00:00:00Z' }),
};

export const CreateApiKeyBody = createInsertSchema(apiKeys, fields)
  .pick({ name: true, permissions: true, expiresAt: true })
  .partial({ permissions: true, expiresAt: true })
  .extend({
    type: z.enum(['secret', 'publishable']).optional().openapi({ description: KEY_TYPE_DESCRIPTION, default: 'secret' }),
    role: z.string().trim().min(1).max(100).optional().openapi({ description: 'Role id or name (secret keys).', example: 'admin' }),
    vendorId: z.string().min(1).max(100).optional().openapi({ description: 'Required with role `vendor`, refused otherwise: the vendor the key acts for.' }),
    allowedOrigins: AllowedOrigins.optional().openapi({
      description: 'Required for a publishable key, refused for a secret one: the web origins it may be used from (exact, or `https://*.shop.example`).',
      example: ['https://shop.example'],
    }),
    apiVersion: ApiVersion.optional().openapi({ description: `${KEY_VERSION_DESCRIPTION} Default: the store's default version (\`apiVersion\` in the settings).` }),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.type === 'publishable') {
      for (const field of ['role', 'permissions', 'vendorId'] as const) {
        if (body[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: "a publishable key holds a shopper's abilities only; leave it out" });
      }
      if (!body.allowedOrigins?.length) ctx.addIssue({ code: 'custom', path: ['allowedOrigins'], message: 'a publishable key needs at least one origin to be used from' });
      return;
    }
    if (body.allowedOrigins !== undefined) ctx.addIssue({ code: 'custom', path: ['allowedOrigins'], message: 'only publishable keys have origins' });
    if ((body.role === undefined) === (body.permissions === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['role'], message: 'give exactly one of role or permissions' });
    }
  })
  .openapi('CreateApiKey', {
    description:
      'A key holds either a role (and follows its permissions) or its own permissions, never more than the credential minting it covers (403 otherwise). ' +
      "A key minted by a signed-in user belongs to that user; one minted by a key belongs to that key's owner.",
  });
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyBody>;

export const UpdateApiKeyBody = z
  .strictObject({
    name: fields.name.optional(),
    apiVersion: ApiVersion.optional().openapi({ description: KEY_VERSION_DESCRIPTION }),
  })
  .openapi('UpdateApiKey', { description: "A key's name and pinned API version; what it may do never changes (mint a new key instead)." });
export type UpdateApiKeyInput = z.infer<typeof UpdateApiKeyBody>;
