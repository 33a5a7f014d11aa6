import { z } from '@hono/zod-openapi';
import { webhookEndpoints } from '../../db/schema';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Timestamp } from '../../lib/schemas';
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH } from '../../webhooks/url-policy';
import { EventKinds } from './event-kinds';

export const URL_RULES =
  `https only, at most ${MAX_WEBHOOK_URL_LENGTH} characters, no credentials (\`user:pass@\`) and no fragment. ` +
  'Refused hosts: `localhost`, `*.localhost`, `*.local`, `*.internal`, `*.home.arpa`, and IP literals in any IANA special-purpose range (private, loopback, ' +
  'link-local, shared 100.64/10, "this network" 0/8, IETF protocol assignments 192.0.0/24, benchmarking 198.18/15, documentation, multicast, reserved, ' +
  'broadcast). An IPv6 literal must be global unicast (2000::/3) outside the special ranges, so IPv4-mapped, -translated and -compatible forms, NAT64 ' +
  '(64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16), Teredo (2001::/32), site-local (fec0::/10), unique-local, link-local and multicast are refused ' +
  'whatever address they embed. A DNS name is not resolved here: deployed Workers cannot connect to private addresses (Cloudflare refuses them), so a ' +
  'public name pointing at one only fails at delivery time. When the store runs with `WEBHOOK_ALLOW_PRIVATE_URLS=true` (local development, ' +
  'tests) plain http and private or loopback hosts are accepted. A refused URL is 422 on `url`, naming why.';

/**
 * The checks that do not depend on the configuration (a parsable URL, no credentials or fragment,
 * the length) run in the schema, so they are reported with the other fields' problems; the host and
 * scheme policy depends on WEBHOOK_ALLOW_PRIVATE_URLS and runs in the service.
 */
const WebhookUrl = z
  .string()
  .trim()
  .min(1)
  .superRefine((url, ctx) => {
    const problem = checkWebhookUrl(url, { allowPrivate: true });
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi({ description: URL_RULES, example: 'https://example.com/webhooks/store' });

const SecretRotation = z
  .object({
    previousSecretExpiresAt: Timestamp.openapi({ description: 'Until then the previous secret signs every delivery as well.' }),
  })
  .openapi('WebhookSecretRotation');

export const WebhookEndpointSchema = createSelectSchema(webhookEndpoints, {
  url: z.string().openapi({ example: 'https://example.com/webhooks/store' }),
  events: z.array(z.string()).openapi({ description: 'Event kinds delivered, or `["*"]` for all.', example: ['order.placed'] }),
  description: z.string().nullable(),
  active: z.boolean().openapi({ description: 'Inactive endpoints receive nothing; events meanwhile are not delivered later.' }),
  failingSince: Timestamp.nullable().openapi({ description: 'When the current run of failed deliveries began; null while deliveries succeed.' }),
  disabledAt: Timestamp.nullable().openapi({
    description: 'Set when the store switched the endpoint off for failing too long (it is then inactive). `PATCH` with `active: true` re-enables it and clears this.',
  }),
  disabledReason: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .omit({ secret: true, previousSecret: true, previousSecretExpiresAt: true })
  .extend({
    secretRotation: SecretRotation.nullable().openapi({ description: 'While a rotated-out secret still signs: until when. Null otherwise.' }),
  })
  .openapi('WebhookEndpoint', { description: 'Where events are POSTed. The signing secret is shown only when created or rotated.' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

const SecretField = z.string().openapi({
  description:
    'The signing secret (`whsec_` + base64). Shown only in this response: store it now. `X-Store-Signature` is the hex HMAC-SHA256 of the raw body keyed with this whole string; the Standard Webhooks signature uses the base64-decoded part after `whsec_`.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});

export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({ secret: SecretField }).openapi('CreatedWebhookEndpoint');

const fields = {
  url: WebhookUrl,
  events: EventKinds,
  description: z.string().trim().max(500).nullable().openapi({ example: 'Order sync to the warehouse' }),
  active: z.boolean().openapi({ description: 'Defaults to true.' }),
};

export const CreateWebhookBody = createInsertSchema(webhookEndpoints, fields)
  .pick({ url: true, events: true, description: true, active: true })
  .partial({ description: true, active: true })
  .strict()
  .openapi('CreateWebhookEndpoint');

export const UpdateWebhookBody = createUpdateSchema(webhookEndpoints, fields)
  .pick({ url: true, events: true, description: true, active: true })
  .partial()
  .strict()
  .openapi('UpdateWebhookEndpoint', {
    description: '`active: true` on an endpoint the store disabled re-enables it and clears `disabledAt`, `disabledReason` and `failingSince`.',
  });

export const DEFAULT_OVERLAP_HOURS = 24;
export const MAX_OVERLAP_HOURS = 168;

export const RotateSecretBody = z
  .strictObject({
    overlapHours: z
      .int()
      .min(0)
      .max(MAX_OVERLAP_HOURS)
      .optional()
      .openapi({
        description: `Hours the current secret keeps signing next to the new one (0 to ${MAX_OVERLAP_HOURS}, ${DEFAULT_OVERLAP_HOURS} by default); 0 retires it at once.`,
        example: DEFAULT_OVERLAP_HOURS,
      }),
  })
  .openapi('RotateWebhookSecret');

export type CreateWebhookInput = z.infer<typeof CreateWebhookBody>;
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookBody>;
export type RotateSecretInput = z.infer<typeof RotateSecretBody>;
