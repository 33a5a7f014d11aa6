import { eq } from 'drizzle-orm';
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { inject } from 'vitest';
import { events, webhookEndpoints, type WebhookEndpointRow } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { ID_PREFIX, newId } from '../../src/lib/ids';
import { handleQueue } from '../../src/queues';
import { db } from '../helpers';

// The worker side of the loopback receiver that test/webhooks/receiver.global-setup.mjs runs in
// Node, and the fixtures the webhook consumer tests share.

declare module 'vitest' {
  export interface ProvidedContext {
    webhookReceiver: { url: string; closedUrl: string };
  }
}

export interface ReceivedRequest {
  method: string;
  path: string;
  /** Node lower-cases header names. */
  headers: Record<string, string>;
  body: string;
  receivedAt: string;
  /** The status the receiver answered with; absent for requests it never answered. */
  answered?: number;
}

export interface ChannelScript {
  /** Answer the first N deliveries with `failStatus` (500 unless told), then 200. */
  failFirst?: number;
  failStatus?: number;
  /** Answer every delivery with a 302 to this URL. */
  redirectTo?: string;
  /** The body of 200 answers (JSON `{"received":true}` unless told). */
  answerBody?: string;
}

/** A URL on a loopback port nobody listens on: connecting is refused. */
export const closedUrl = () => inject('webhookReceiver').closedUrl;

/** A fresh channel of the receiver: its delivery URLs, and what it received. */
export async function openChannel(script: ChannelScript = {}) {
  const base = inject('webhookReceiver').url;
  const name = `ch${crypto.randomUUID().replace(/-/g, '')}`;
  const res = await fetch(`${base}/control/${name}`, { method: 'PUT', body: JSON.stringify(script) });
  if (!res.ok) throw new Error(`receiver refused the script: ${res.status} ${await res.text()}`);
  await res.text();
  return {
    /** Answers as scripted. */
    url: `${base}/hook/${name}`,
    /** Never answers. */
    hangUrl: `${base}/hang/${name}`,
    async requests(): Promise<ReceivedRequest[]> {
      const list = await fetch(`${base}/control/${name}`);
      return (await list.json()) as ReceivedRequest[];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Signatures, computed here with Web Crypto from the rule in docs/webhooks.md, independently of
// src/webhooks/signature.ts, so a mistake there cannot hide in the tests.

const utf8 = new TextEncoder();

async function hmacSha256(key: Uint8Array, message: string): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, utf8.encode(message)));
}

/** `X-Store-Signature`: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret string. */
export async function expectedStoreSignature(secret: string, body: string): Promise<string> {
  return [...(await hmacSha256(utf8.encode(secret), body))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** One `webhook-signature` entry: `v1,` + base64 HMAC of `id.timestamp.body`, keyed with the bytes after `whsec_`. */
export async function expectedStandardSignature(secret: string, id: string, timestamp: string, body: string): Promise<string> {
  const key = Uint8Array.from(atob(secret.replace(/^whsec_/, '')), (c) => c.charCodeAt(0));
  return `v1,${btoa(String.fromCharCode(...(await hmacSha256(key, `${id}.${timestamp}.${body}`))))}`;
}

export function testSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}

// ---------------------------------------------------------------------------------------------
// Rows and batches.

export async function insertEndpoint(values: Partial<WebhookEndpointRow> & { url: string }): Promise<WebhookEndpointRow> {
  const [row] = await db()
    .insert(webhookEndpoints)
    .values({ id: newId(ID_PREFIX.webhookEndpoint), events: ['*'], secret: testSecret(), ...values })
    .returning();
  return row!;
}

/** An outbox event already marked published, so no request's publisher sends it to the real queue behind the test's back. */
export async function insertEvent(type: string, data: Record<string, unknown> = {}) {
  const now = new Date();
  const id = newId(ID_PREFIX.event, now.getTime());
  await db().insert(events).values({ id, type, data, createdAt: now.toISOString(), publishedAt: now.toISOString() });
  // Read back, not RETURNING: the insert's trigger sets position, resourceId and sequence after it.
  const [row] = await db().select().from(events).where(eq(events.id, id));
  return row!;
}

let messageCounter = 0;

/** Runs the Worker's queue handler on a real MessageBatch and returns the explicit acks and retries. */
export async function runQueue<Body>(queue: string, bodies: { body: Body; attempts?: number }[], overrides: Partial<Bindings> = {}) {
  const messages = bodies.map(({ body, attempts }) => ({ id: `msg-${++messageCounter}`, timestamp: new Date(), attempts: attempts ?? 1, body }));
  const batch = createMessageBatch<Body>(queue, messages);
  // getQueueResult (pool 0.15) reports which messages were retried but not their delaySeconds, so
  // each message's retry() records what it was given.
  const delays = new Map<string, number | undefined>();
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    message.retry = (options?: QueueRetryOptions) => {
      delays.set(message.id, options?.delaySeconds);
      retry(options);
    };
  }
  const ctx = createExecutionContext();
  await handleQueue(batch as MessageBatch<unknown>, { ...env, ...overrides }, ctx);
  const result = await getQueueResult(batch, ctx);
  const retries = new Map<string, number | undefined>(result.retryMessages.map((r: { msgId: string }) => [r.msgId, delays.get(r.msgId)] as const));
  return {
    result,
    ids: messages.map((m) => m.id),
    acked: (i = 0) => result.explicitAcks.includes(messages[i]!.id),
    retried: (i = 0) => retries.has(messages[i]!.id),
    delay: (i = 0) => retries.get(messages[i]!.id),
  };
}

/**
 * A stand-in for DELIVERIES_QUEUE (or EVENTS_QUEUE, NOTIFICATIONS_QUEUE, REPLAYS_QUEUE) that records the ids it is
 * sent (`deliveryId`, `eventId`, `notificationId`, `replayId`), and can fail on demand.
 */
export function recordingQueue(options: { failSends?: number } = {}) {
  const sent: string[] = [];
  let failures = options.failSends ?? 0;
  type Body = { deliveryId?: string; eventId?: string; notificationId?: string; replayId?: string };
  const idOf = (body: Body) => (body.deliveryId ?? body.eventId ?? body.notificationId ?? body.replayId)!;
  const queue = {
    async send(body: Body) {
      sent.push(idOf(body));
    },
    async sendBatch(messages: Iterable<{ body: Body }>) {
      if (failures > 0) {
        failures -= 1;
        throw new Error('queue unavailable (test)');
      }
      for (const m of messages) sent.push(idOf(m.body));
    },
  };
  return { sent, queue: queue as unknown as Bindings['DELIVERIES_QUEUE'] & Bindings['EVENTS_QUEUE'] & Bindings['NOTIFICATIONS_QUEUE'] & Bindings['REPLAYS_QUEUE'] };
}
