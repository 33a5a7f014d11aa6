import { and, asc, count, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type WebhookReplayRow, webhookReplays } from '../../db/schema';
import type { Bindings } from '../../env';
import { ApiError } from '../../lib/errors';
import { config } from '../../config';
import { ID_PREFIX, newId } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { failReplay, sendReplayPage } from '../../webhooks/replay';
import { assertReceiving } from './deliveries.service';
import { kindsOf, subscribedKinds } from './event-kinds';
import { replayListQuery } from './replays.query';
import { type CreateReplayInput, REPLAYS_PER_HOUR, type Replay } from './replays.schemas';
import { getEndpointRow } from './webhooks.service';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const UNFINISHED = ['queued', 'running'] as const;

export function toReplay(row: WebhookReplayRow): Replay {
  const { endpointId: _endpoint, cursor: _cursor, updatedAt: _updated, ...rest } = row;
  return rest;
}

/** The window asked for, `to` taken as now when later; 422 naming the field when it cannot be replayed. */
function replayWindow(input: CreateReplayInput, retentionDays: number, now: Date): { from: string; to: string } {
  const ts = now.toISOString();
  const oldest = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  // biome-ignore lint/complexity/useMathMinMax: ISO timestamps compared as strings; Math.min would turn them into NaN.
  const to = input.to > ts ? ts : input.to;
  if (input.from >= input.to) throw ApiError.validation([{ field: 'to', problem: 'must be after from' }]);
  if (input.from >= ts) throw ApiError.validation([{ field: 'from', problem: 'must be in the past' }]);
  if (input.from < oldest)
    throw ApiError.validation([{ field: 'from', problem: `must be within the last ${retentionDays} days (the events the store keeps, EVENT_RETENTION_DAYS): ${oldest} or later` }]);
  return { from: input.from, to };
}

/** The kinds replayed: those asked for (all when none) that the endpoint subscribes to; 422 when a pattern names none of them. */
function replayedKinds(subscribed: readonly string[], patterns: readonly string[] | undefined): string[] {
  const receivable = subscribedKinds(subscribed);
  if (!patterns) return receivable;
  const outside = patterns.filter((pattern) => !kindsOf(pattern).some((kind) => receivable.includes(kind)));
  if (outside.length) {
    throw ApiError.validation([{ field: 'types', problem: `the endpoint does not subscribe to ${outside.join(', ')}; it subscribes to ${subscribed.join(', ')}` }]);
  }
  const asked = new Set(patterns.flatMap(kindsOf));
  return receivable.filter((kind) => asked.has(kind));
}

const ofEndpoint = (endpointId: string) => eq(webhookReplays.endpointId, endpointId);

/**
 * Starts a replay (src/webhooks/replay.ts) and queues its first page. One insert, guarded in the same
 * statement, keeps to one unfinished replay per endpoint and REPLAYS_PER_HOUR an hour, so two
 * requests at once cannot both pass; when it does not apply, the reads in its batch say why.
 */
export async function createReplay(db: Database, env: Pick<Bindings, 'REPLAYS_QUEUE' | 'EVENT_RETENTION_DAYS'>, endpointId: string, input: CreateReplayInput, now = new Date()) {
  const endpoint = await getEndpointRow(db, endpointId);
  assertReceiving(endpoint, 'replay');
  const { from, to } = replayWindow(input, config(env).EVENT_RETENTION_DAYS, now);
  const eventTypes = replayedKinds(endpoint.events, input.types);
  const ts = now.toISOString();
  const hourAgo = new Date(now.getTime() - HOUR_MS).toISOString();
  const row: WebhookReplayRow = {
    id: newId(ID_PREFIX.webhookReplay, now.getTime()),
    endpointId,
    status: 'queued',
    from,
    to,
    types: input.types ?? null,
    eventTypes,
    matched: 0,
    queued: 0,
    skipped: 0,
    cursor: null,
    error: null,
    finishedAt: null,
    createdAt: ts,
    updatedAt: ts,
  };
  const unfinished = and(ofEndpoint(endpointId), inArray(webhookReplays.status, [...UNFINISHED]));
  const lastHour = and(ofEndpoint(endpointId), gt(webhookReplays.createdAt, hourAgo));
  const allowed = sql`NOT EXISTS (SELECT 1 FROM ${webhookReplays} WHERE ${unfinished}) AND (SELECT count(*) FROM ${webhookReplays} WHERE ${lastHour}) < ${REPLAYS_PER_HOUR}`;
  const [inserted, [running], recent] = await db.batch([
    insertWhere(db, webhookReplays, row, allowed).returning(),
    db.select({ id: webhookReplays.id }).from(webhookReplays).where(unfinished).limit(1),
    db.select({ createdAt: webhookReplays.createdAt }).from(webhookReplays).where(lastHour).orderBy(asc(webhookReplays.createdAt)).limit(1),
  ]);
  if (inserted.length === 0) {
    if (running) throw ApiError.conflict(`Replay ${running.id} of this endpoint has not finished; follow it at GET /api/webhooks/${endpointId}/replays/${running.id}`);
    const until = new Date(Date.parse(recent[0]?.createdAt ?? ts) + HOUR_MS);
    throw new ApiError('RATE_LIMITED', `At most ${REPLAYS_PER_HOUR} replays an hour per endpoint. Try again after ${until.toISOString().slice(11, 16)} UTC.`, {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000))) },
    });
  }
  try {
    await sendReplayPage(env, row.id);
  } catch (error) {
    await failReplay(db, row.id, 'the replay queue refused it; start it again');
    throw error;
  }
  return toReplay(inserted[0]!);
}

export async function listReplays(db: Database, endpointId: string, query: ParsedListQuery<typeof replayListQuery.filters>) {
  await getEndpointRow(db, endpointId);
  const plan = listPlan(replayListQuery, query, [ofEndpoint(endpointId)]);
  const [rows, totals] = await db.batch([
    db
      .select()
      .from(webhookReplays)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(webhookReplays).where(plan.matching),
  ]);
  return { items: rows.map(toReplay), total: totals[0]!.total };
}

export async function getReplay(db: Database, endpointId: string, replayId: string): Promise<Replay> {
  const [row] = await db
    .select()
    .from(webhookReplays)
    .where(and(eq(webhookReplays.id, replayId), ofEndpoint(endpointId)));
  if (!row) throw ApiError.notFound('Webhook replay', replayId);
  return toReplay(row);
}

/** The endpoint's latest replays, newest first (the panel's webhook page). */
export async function recentReplays(db: Database, endpointId: string, limit = 10): Promise<Replay[]> {
  const rows = await db.select().from(webhookReplays).where(ofEndpoint(endpointId)).orderBy(desc(webhookReplays.createdAt), desc(webhookReplays.id)).limit(limit);
  return rows.map(toReplay);
}
