import type { Database } from './db/client';
import type { AddressLimiter } from './durable-objects/address-limiter';
import type { RateLimiter } from './durable-objects/rate-limiter';
import type { Vars } from './config';
import type { ApiError } from './lib/errors';
import type { DeliveryMessage, EventMessage, ImportMessage, NotificationMessage, ReplayMessage } from './lib/queue-messages';
import type { TimingVariables } from 'hono/timing';
import type { Principal } from './lib/access';
import type { AuditActor } from './d1/audit';
import type { D1Metrics } from './d1/metrics';
import type { CredentialRider } from './d1/verified';
import type { VersionRider } from './d1/catalogue-version';

// Types only. The variables (wrangler.toml [vars], .dev.vars, secrets) are described, defaulted and
// checked in src/config.ts: read them with `config(env).NAME`, never `env.NAME`.

/** Bindings declared in wrangler.toml, and the variables of src/config.ts as the Worker receives them (strings). */
export interface Bindings extends Vars {
  DB: D1Database;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  /** Hourly counts of client addresses (requests without a credential), many addresses to an object. */
  ADDRESS_LIMITER: DurableObjectNamespace<AddressLimiter>;
  /** Outbox events, fanned out to webhook endpoints by the `store-events` consumer. */
  EVENTS_QUEUE: Queue<EventMessage>;
  /** One message per webhook delivery; retried with backoff, then dead-lettered. */
  DELIVERIES_QUEUE: Queue<DeliveryMessage>;
  /** One message per notification (email or SMS); retried with backoff, then dead-lettered. */
  NOTIFICATIONS_QUEUE: Queue<NotificationMessage>;
  /** Product images, stored under the SHA-256 of their bytes (src/modules/media/). */
  MEDIA: R2Bucket;
  /** The product import queue (src/modules/imports/): one message per chunk of products. */
  IMPORTS_QUEUE: Queue<ImportMessage>;
  /** Webhook replays (src/webhooks/replay.ts): one message per page of a replay's window. */
  REPLAYS_QUEUE: Queue<ReplayMessage>;
}

/** Where the request's D1 session started (src/d1/session.ts). */
export type SessionStart = 'first-primary' | 'first-unconstrained' | 'bookmark';

/** Per-request values set by middleware and read by handlers through `c.var`. */
export interface Variables extends TimingVariables {
  requestId: string;
  /** The request's database: its D1 session under the layers of src/d1/request-db.ts, which alone builds it. */
  db: Database;
  sessionStart: SessionStart;
  // The riders of `db`, set with ride() (src/d1/request-db.ts says what each does and in which order).
  /** Whom the audit log names for a write (src/middleware/services.ts). */
  auditActor?: () => AuditActor | null;
  /** The request's D1 cost, in development (src/middleware/d1-metrics.ts). */
  d1Metrics?: D1Metrics;
  /** A cached API key's check (src/middleware/rate-limit.ts). */
  credentialCheck?: CredentialRider;
  /** The catalogue version of a catalogue read (src/middleware/catalogue-cache.ts). */
  catalogueVersion?: VersionRider;
  principal: Principal;
  /** The settings kept per isolate that any request may need (src/middleware/edge-settings.ts), set by src/middleware/store-version.ts. */
  edgeSettings?: () => Promise<import('./middleware/edge-settings').EdgeSettings>;
  /** The shopper's network a storefront server named in X-Buyer-IP, once allowed (src/middleware/rate-limit.ts). */
  buyerNetwork?: string;
  /** The caller and its Idempotency-Key, hashed, on routes that take one (src/middleware/idempotency.ts). */
  requestKey?: string;
  /** A credential that failed: thrown once the request has been counted as unauthenticated. */
  authError?: ApiError;
  /** Where counting this request left its bucket (src/middleware/rate-limit.ts); unset when it was not counted. */
  rateLimit?: import('./durable-objects/rate-limiter').RateLimitDecision;
  /** What the answering route declared of its body limit, rate limiting, caching and idempotency (src/middleware/route-policy.ts). */
  policy?: import('./lib/route-policy').RoutePolicy;
  /** The envelope answered and its JSON text (src/lib/envelope.ts): the catalogue cache keeps the text without reading the body back. */
  renderedJson?: { response: Response; text: string };
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
