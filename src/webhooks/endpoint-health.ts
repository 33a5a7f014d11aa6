import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import { compiled, type Slot } from '../db/compiled';
import { field, jsonEach, jsonValues } from '../db/json-rows';
import { notifications, webhookEndpoints, type WebhookEndpointRow } from '../db/schema';
import { notificationTemplates } from '../db/schema/notifications';
import type { Bindings } from '../env';
import { insertWhere } from '../lib/insert-where';
import { storeName } from '../notifications/context';
import { sendNotificationMessages } from '../notifications/messages';
import { notificationRow } from '../notifications/planner';
import { staffRecipients } from '../notifications/recipients';
import { TRIGGERS } from '../notifications/triggers';

/** An attempt's outcome, as far as its endpoint's health goes. */
export interface Attempted {
  endpoint: WebhookEndpointRow;
  result: { ok: boolean; startedAt: Date; durationMs: number };
}

export const finishedAt = (result: Attempted['result']) => new Date(result.startedAt.getTime() + result.durationMs);

/**
 * Each endpoint's failing run after a batch of attempts, from its results in the order they
 * finished (`failingSince` marks when the current run of failures without a success began):
 * - the last one succeeded: the run is over (`since` null, `restarted`);
 * - a success, then failures: a new run, from the first failure after the last success (`restarted`);
 * - failures only: the run goes on, or starts at the first of them if there was none.
 * `endpoint` is the row as read before the batch; `last` the result that finished last.
 */
export function failingRuns<T extends Attempted>(attempts: readonly T[]) {
  const byEndpoint = new Map<string, T[]>();
  for (const attempt of attempts) byEndpoint.set(attempt.endpoint.id, [...(byEndpoint.get(attempt.endpoint.id) ?? []), attempt]);
  return [...byEndpoint.values()].map((list) => {
    const ordered = [...list].sort((a, b) => finishedAt(a.result).getTime() - finishedAt(b.result).getTime());
    let lastSuccess = -1;
    ordered.forEach((attempt, i) => {
      if (attempt.result.ok) lastSuccess = i;
    });
    const last = ordered[ordered.length - 1]!;
    const failing = !last.result.ok;
    return {
      endpoint: last.endpoint,
      failing,
      restarted: lastSuccess >= 0,
      since: failing ? ordered[lastSuccess + 1]!.result.startedAt.toISOString() : null,
      last: last.result as T['result'],
    };
  });
}

/**
 * `failingSince` as failingRuns folded it: set to `since` where the run restarted (null: cleared),
 * else kept, or started at `since` where there was none. Written only where it changes
 * (webhook_endpoints is audited: a write that changes nothing would still leave an audit row).
 */
const nextFailingSince = sql`iif(${field('restarted')}, ${field('since')}, coalesce(${webhookEndpoints.failingSince}, ${field('since')}))`;
const recordRuns = compiled((db, p: Slot<'rows'>) =>
  db
    .update(webhookEndpoints)
    .set({ failingSince: nextFailingSince })
    .from(jsonEach(p('rows')))
    .where(and(eq(webhookEndpoints.id, field('id')), sql`${webhookEndpoints.failingSince} IS NOT ${nextFailingSince}`)),
);

/** The statement(s) recording the runs, for the consumer's D1 batch: one for every endpoint of it. */
export function recordFailingRuns(db: Database, runs: ReturnType<typeof failingRuns>): BatchItem<'sqlite'>[] {
  const rows = runs.map((run) => ({ id: run.endpoint.id, restarted: run.restarted ? 1 : 0, since: run.since }));
  return jsonValues(rows).map((json) => recordRuns(db, { rows: json }) as BatchItem<'sqlite'>);
}

export interface FailedEndpoint {
  endpoint: Pick<WebhookEndpointRow, 'id' | 'url' | 'failingSince'>;
  /** What the last attempt got: an error (`timeout after 10000 ms`) or a status (`HTTP 500`). */
  problem: string;
  disableAfterHours: number;
  now: Date;
}

/**
 * After a failed attempt: switches the endpoint off once it has failed without a single success for
 * `disableAfterHours`, and tells the staff. The switch and the notifications are one batch, and the
 * notifications are conditioned on the endpoint carrying this very `disabledAt`, so when two
 * consumers race only the one whose UPDATE found the endpoint still active writes them (and should
 * both pick the same millisecond, their dedupe keys are the same and the second set conflicts).
 * With `queue`, the notices are put on the notifications queue once written.
 * Returns whether this call disabled it.
 */
export async function disableIfFailingTooLong(db: Database, input: FailedEndpoint, queue?: Pick<Bindings, 'NOTIFICATIONS_QUEUE'>): Promise<boolean> {
  const { endpoint, now } = input;
  if (!endpoint.failingSince) return false;
  const cutoff = new Date(now.getTime() - input.disableAfterHours * 3600_000).toISOString();
  if (endpoint.failingSince > cutoff) return false;

  const disabledAt = now.toISOString();
  const reason = `failing since ${endpoint.failingSince}: ${input.problem}`;
  const disabledNow = sql`EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${webhookEndpoints.id} = ${endpoint.id} AND ${webhookEndpoints.active} = 0 AND ${webhookEndpoints.disabledAt} = ${disabledAt})`;

  // The notice, rendered from the webhook_endpoint_disabled templates, to every staff user who may
  // read webhooks (else the store's contact email). One per disabling and recipient (dedupe key),
  // so two consumers disabling in the same millisecond cannot notify twice.
  const trigger = 'webhook_endpoint_disabled';
  const [templates, recipients, name] = await Promise.all([
    db
      .select()
      .from(notificationTemplates)
      .where(and(eq(notificationTemplates.event, trigger), eq(notificationTemplates.active, true))),
    staffRecipients(db, TRIGGERS[trigger].permission),
    storeName(db),
  ]);
  const data = {
    storeName: name,
    endpointId: endpoint.id,
    url: endpoint.url,
    failingSince: endpoint.failingSince,
    disabledAt,
    problem: input.problem,
    disableAfterHours: input.disableAfterHours,
    reason,
  };
  const rows = templates.flatMap((template) =>
    recipients.flatMap((recipient) => {
      const to = template.channel === 'sms' ? recipient.phone : recipient.email;
      if (!to) return [];
      return [notificationRow({ template, to, skip: null, userId: recipient.userId, data, cause: `${trigger}:${endpoint.id}:${disabledAt}`, eventId: null }, now)];
    }),
  );
  const inserts = rows.map((row) => insertWhere(db, notifications, row, disabledNow).onConflictDoNothing());
  const [updated] = await db.batch([
    db
      .update(webhookEndpoints)
      .set({ active: false, disabledAt, disabledReason: reason, updatedAt: disabledAt })
      .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.active, true), isNotNull(webhookEndpoints.failingSince), lte(webhookEndpoints.failingSince, cutoff))),
    ...inserts,
  ]);
  if (updated.meta.changes === 0) return false;
  // Best effort: a notice whose message is lost is sent by the minute cron (src/notifications/stalled.ts).
  if (queue && rows.length)
    await sendNotificationMessages(
      queue,
      rows.map((r) => r.id),
    ).catch((error) => console.error(JSON.stringify({ level: 'error', message: 'queueing endpoint-disabled notices failed; the cron will send them', error: String(error) })));
  console.error(
    JSON.stringify({
      level: 'error',
      message: 'webhook endpoint disabled',
      endpointId: endpoint.id,
      url: endpoint.url,
      failingSince: endpoint.failingSince,
      disabledAt,
      reason,
      notified: rows.length,
    }),
  );
  return true;
}
