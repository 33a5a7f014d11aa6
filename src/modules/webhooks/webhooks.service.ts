import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type WebhookEndpointRow, webhookEndpoints } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { listTable, type ParsedListQuery } from '../../lib/query';
import { mintWebhookSecret } from '../../webhooks/signature';
import { checkWebhookUrl } from '../../webhooks/url-policy';
import { webhookListQuery } from './webhooks.query';
import { type CreateWebhookInput, DEFAULT_OVERLAP_HOURS, type RotateSecretInput, type UpdateWebhookInput, type WebhookEndpoint } from './webhooks.schemas';

const HOUR_MS = 3_600_000;

/** The representation: never a secret; the rotation only while the previous secret still signs. */
export function toEndpoint(row: WebhookEndpointRow, now = new Date()): WebhookEndpoint {
  const { secret: _secret, previousSecret, previousSecretExpiresAt, ...rest } = row;
  const overlapping = previousSecret && previousSecretExpiresAt && previousSecretExpiresAt > now.toISOString();
  return { ...rest, secretRotation: overlapping ? { previousSecretExpiresAt } : null };
}

/** 422 on `url` when the configuration does not allow it. */
function assertUrlAllowed(url: string, allowPrivate: boolean): void {
  const problem = checkWebhookUrl(url, { allowPrivate });
  if (problem) throw ApiError.validation([{ field: 'url', problem }]);
}

export async function getEndpointRow(db: Database, id: string): Promise<WebhookEndpointRow> {
  const row = await db.query.webhookEndpoints.findFirst({ where: eq(webhookEndpoints.id, id) });
  if (!row) throw ApiError.notFound('Webhook endpoint', id);
  return row;
}

export async function listEndpoints(db: Database, query: ParsedListQuery<typeof webhookListQuery.filters>) {
  const { items, total } = await listTable<WebhookEndpointRow, typeof webhookListQuery.filters>(db, webhookEndpoints, webhookListQuery, query);
  const now = new Date();
  return { items: items.map((row) => toEndpoint(row, now)), total };
}

export async function getEndpoint(db: Database, id: string): Promise<WebhookEndpoint> {
  return toEndpoint(await getEndpointRow(db, id));
}

/** Creates an endpoint and returns its secret: the only time it is shown. */
export async function createEndpoint(db: Database, input: CreateWebhookInput, allowPrivate: boolean, now = new Date()) {
  assertUrlAllowed(input.url, allowPrivate);
  const secret = mintWebhookSecret();
  const ts = now.toISOString();
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      id: newId(ID_PREFIX.webhookEndpoint, now.getTime()),
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      active: input.active ?? true,
      secret,
      createdAt: ts,
      updatedAt: ts,
    })
    .returning();
  return { endpoint: toEndpoint(row!, now), secret };
}

export async function updateEndpoint(db: Database, id: string, patch: UpdateWebhookInput, allowPrivate: boolean, now = new Date()) {
  const current = await getEndpointRow(db, id);
  if (Object.keys(patch).length === 0) return toEndpoint(current, now);
  if (patch.url !== undefined) assertUrlAllowed(patch.url, allowPrivate);
  // Switching an endpoint back on is a fresh start: the store's verdict and the failing run are cleared.
  const restart = patch.active === true && (!current.active || current.disabledAt !== null);
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...patch, ...(restart ? { disabledAt: null, disabledReason: null, failingSince: null } : {}), updatedAt: now.toISOString() })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  if (!row) throw ApiError.notFound('Webhook endpoint', id);
  return toEndpoint(row, now);
}

/** Deliveries and their attempts go with it (foreign keys cascade). */
export async function deleteEndpoint(db: Database, id: string): Promise<void> {
  const deleted = await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) throw ApiError.notFound('Webhook endpoint', id);
}

/**
 * A new secret signs from now on; the current one moves to previousSecret and keeps signing until
 * the overlap ends, so receivers can switch without missing a delivery. One UPDATE reads the old
 * secret in SQL, so two rotations at once cannot both keep the same previous secret.
 */
export async function rotateSecret(db: Database, id: string, input: RotateSecretInput, now = new Date()) {
  const overlapHours = input.overlapHours ?? DEFAULT_OVERLAP_HOURS;
  const secret = mintWebhookSecret();
  const keepPrevious = overlapHours > 0;
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      secret,
      previousSecret: keepPrevious ? sql`${webhookEndpoints.secret}` : null,
      previousSecretExpiresAt: keepPrevious ? new Date(now.getTime() + overlapHours * HOUR_MS).toISOString() : null,
      updatedAt: now.toISOString(),
    })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  if (!row) throw ApiError.notFound('Webhook endpoint', id);
  return { endpoint: toEndpoint(row, now), secret };
}
