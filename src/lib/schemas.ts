import { z } from '@hono/zod-openapi';
import { createSchemaFactory } from 'drizzle-zod';
import { hasAtMostDecimals, MAX_MAJOR_AMOUNT } from './money';
import { MAX_ALLOWED_ORIGINS, normalOrigin, originPatternProblem } from './origins';
import { PERMISSION_ACTIONS, PERMISSION_RESOURCES, permissionProblem, SPECIAL_PERMISSIONS } from './permissions';

/** drizzle-zod bound to the OpenAPI-aware zod, so schemas derived from tables can carry `.openapi()`. */
export const { createSelectSchema, createInsertSchema, createUpdateSchema } = createSchemaFactory({ zodInstance: z });

/** An amount in the currency's major unit, as the API shows and accepts it. */
export const Money = z
  .number()
  .min(0)
  .max(MAX_MAJOR_AMOUNT)
  .refine((n) => hasAtMostDecimals(n), 'must have at most 2 decimals')
  .openapi({ description: 'Amount in the major unit of the currency (19.99), at most 2 decimals.', example: 19.99 });

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const Slug = z.string().min(1).max(120).regex(SLUG_PATTERN, 'must be lowercase letters, digits and single hyphens').openapi({ example: 'summer-t-shirt' });

export const Timestamp = z.iso.datetime().openapi({ example: '2026-11-22T10:00:00.000Z' });

/** A date-time in a request body, with any offset; stored as UTC ISO text. */
export const Instant = z.iso
  .datetime({ offset: true })
  .transform((text) => new Date(text).toISOString())
  .openapi({ example: '2026-12-01T00:00:00.000Z', description: 'ISO 8601 date-time; stored in UTC.' });

/** A compact reference to a related resource, as embedded in another's representation. */
export const Ref = z.object({ id: z.string(), name: z.string(), slug: z.string() });

/** One permission (src/lib/permissions.ts). */
export const Permission = z
  .string()
  .max(100)
  .superRefine((value, ctx) => {
    const problem = permissionProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi({ example: 'products:write', description: '`resource:action`, `resource:*` or `*`.' });

export const Permissions = z
  .array(Permission)
  .max(PERMISSION_RESOURCES.length * PERMISSION_ACTIONS.length + PERMISSION_RESOURCES.length + 1 + 2 * Object.keys(SPECIAL_PERMISSIONS).length)
  .transform((list) => [...new Set(list)])
  .openapi({
    example: ['products:read', 'orders:*'],
    description: `Permissions: \`resource:action\`, \`resource:*\` or \`*\`. Resources: ${PERMISSION_RESOURCES.join(', ')}. Actions: ${PERMISSION_ACTIONS.join(', ')}. Also \`storefront:buyer-ip\`: the key may send \`X-Buyer-IP\` to be counted per shopper.`,
  });

/** Web origins or origin patterns (src/lib/origins.ts), lower-cased and without repeats. */
export const AllowedOrigins = z
  .array(
    z
      .string()
      .max(200)
      .transform(normalOrigin)
      .superRefine((value, ctx) => {
        const problem = originPatternProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  )
  .max(MAX_ALLOWED_ORIGINS)
  .transform((patterns) => [...new Set(patterns)]);
