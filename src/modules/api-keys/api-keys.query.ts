import { z } from '@hono/zod-openapi';
import { and, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { apiKeys } from '../../db/schema';
import { defineListQuery, type FilterSpec, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { API_KEY_STATUSES, ApiKeySchema } from './api-keys.schemas';

// Timestamps are stored as toISOString() text, which this SQL expression matches, so they compare as text.
const sqlNow = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
const STATUS_WHERE = {
  active: and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), sql`${apiKeys.expiresAt} > ${sqlNow}`)),
  revoked: isNotNull(apiKeys.revokedAt),
  expired: and(isNull(apiKeys.revokedAt), sql`${apiKeys.expiresAt} <= ${sqlNow}`),
};

const statusFilter: FilterSpec<(typeof API_KEY_STATUSES)[number] | undefined> = {
  schema: z
    .enum(API_KEY_STATUSES)
    .optional()
    .openapi({ description: `Key status. One of: ${API_KEY_STATUSES.join(', ')}.` }),
  where: (status) => STATUS_WHERE[status],
};

export const apiKeyListQuery = defineListQuery({
  resource: 'api key',
  id: apiKeys.id,
  sortable: { createdAt: apiKeys.createdAt, name: apiKeys.name, lastUsedAt: apiKeys.lastUsedAt, id: apiKeys.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(ApiKeySchema),
  filters: {
    status: statusFilter,
    q: searchFilter([apiKeys.name], 'Search in the name, case-insensitive.'),
  },
});
