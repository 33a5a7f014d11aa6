import type { Database } from './db/client';
import type { AddressLimiter } from './durable-objects/address-limiter';
import type { RateLimiter } from './durable-objects/rate-limiter';
import type { ApiError } from './lib/errors';
import type { DeliveryMessage, EventMessage } from './webhooks/messages';
import type { NotificationMessage } from './notifications/messages';
import type { TimingVariables } from 'hono/timing';
import type { Principal } from './lib/access';

/** Bindings declared in wrangler.toml, and secrets from .dev.vars locally or `wrangler secret` when deployed. */
export interface Bindings {
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
  /** `outbox` (default: kept in D1, readable at /api/notifications) or `resend`. */
  NOTIFICATIONS_EMAIL_PROVIDER?: string;
  /** `outbox` (default) or `twilio`. */
  NOTIFICATIONS_SMS_PROVIDER?: string;
  /** The From of every email (`Store <orders@shop.example>`). */
  NOTIFICATIONS_EMAIL_FROM?: string;
  /** First retry delay of a failed notification in seconds, doubled each attempt (30 by default). */
  NOTIFICATIONS_RETRY_BASE_SECONDS?: string;
  /** Time a provider has to answer, in milliseconds (10000 by default). */
  NOTIFICATIONS_TIMEOUT_MS?: string;
  /** Secret: the Resend API key. */
  RESEND_API_KEY?: string;
  /** Resend's base URL (https://api.resend.com by default; tests point it at a loopback receiver). */
  RESEND_API_URL?: string;
  /** Secrets: Twilio account SID and auth token, and the sending number or Messaging Service SID. */
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  TWILIO_FROM?: string;
  /** Twilio's base URL (https://api.twilio.com by default). */
  TWILIO_API_URL?: string;
  /** The storefront page that takes a reset token; the email links to it with `?token=...`. */
  PASSWORD_RESET_URL?: string;
  /** Lifetime of a password-reset token in seconds; 3600 by default. */
  PASSWORD_RESET_TTL_SECONDS?: string;
  /** "true" lets webhook URLs be http or private/loopback addresses (local development only). */
  WEBHOOK_ALLOW_PRIVATE_URLS?: string;
  /** First retry delay of a failed delivery in seconds, doubled each attempt (30 by default). */
  WEBHOOK_RETRY_BASE_SECONDS?: string;
  /** An endpoint failing this many hours without one success is disabled (72 by default). */
  WEBHOOK_DISABLE_AFTER_HOURS?: string;
  /** Time a receiver has to answer, in milliseconds (10000 by default). */
  WEBHOOK_TIMEOUT_MS?: string;
  /** Secret that signs user JWTs (HS256). */
  JWT_SECRET?: string;
  /** Lifetime of a user JWT in seconds; 86400 by default. */
  JWT_TTL_SECONDS?: string;
  /** One-time secret that lets a deployed store create its first admin (POST /api/auth/bootstrap). */
  BOOTSTRAP_SECRET?: string;
  /** Requests per hour per API key or user; 1000 by default. */
  RATE_LIMIT_AUTHENTICATED?: string;
  /** Requests per hour per client IP without a credential; 100 by default. */
  RATE_LIMIT_ANONYMOUS?: string;
  /** The sliding window of every rate limit in seconds; 3600 by default (the client libraries' live tests use 2). */
  RATE_LIMIT_WINDOW_SECONDS?: string;
  /** Seconds an isolate may answer a busy key from a lease before giving back what it did not use (10). */
  RATE_LIMIT_LEASE_SECONDS?: string;
  /**
   * Milliseconds without a new catalogue version after which an isolate tries its kept answers
   * (src/middleware/catalogue-cache.ts); 2000 by default.
   */
  CATALOGUE_CACHE_QUIET_MS?: string;
  /** The first order's number (`#1001`); every later order gets the next one (src/modules/orders/place-order.ts). 1001 by default. */
  ORDER_NUMBER_START?: string;
  /** Minutes a pending order may stay unpaid before the minute cron cancels it (src/modules/orders/order-expiry.ts); 60 by default. */
  ORDER_PAYMENT_TTL_MINUTES?: string;
  /** Minutes a cart with lines and an email may stay unchanged before the minute cron calls it abandoned (60). */
  CART_ABANDONED_AFTER_MINUTES?: string;
  /** The storefront page a cart reminder links to, with `cart` and a single-use `token` (src/modules/carts/recovery.ts). */
  CART_RECOVERY_URL?: string;
  /** Stripe's secret API key (`sk_live_…`, `sk_test_…`, or a restricted `rk_…`): with STRIPE_WEBHOOK_SECRET it enables the `stripe` provider. */
  STRIPE_SECRET_KEY?: string;
  /** The signing secret (`whsec_…`) of the webhook endpoint registered for /api/payments/stripe/webhook. */
  STRIPE_WEBHOOK_SECRET?: string;
  /** Where the Stripe API is (https://api.stripe.com by default); tests point it at a loopback fake. */
  STRIPE_API_BASE?: string;
  /** Product images, stored under the SHA-256 of their bytes (src/modules/media/). */
  MEDIA: R2Bucket;
  /** Largest accepted image in bytes; 10 MiB by default. */
  MEDIA_MAX_BYTES?: string;
  /** What image URLs start with (`https://store.example.com/media`); the upload's origin + /media when empty. */
  MEDIA_BASE_URL?: string;
  /** Most rows a CSV export (`?format=csv`) may hold; 10000 by default (src/middleware/csv-export.ts). */
  CSV_EXPORT_MAX_ROWS?: string;
  /** Largest product CSV `POST /api/products/import` takes, in bytes; 10 MiB by default. */
  IMPORT_MAX_BYTES?: string;
  /** The product import queue (src/modules/imports/): one message per chunk of products. */
  IMPORTS_QUEUE: Queue<import('./modules/imports/imports.service').ImportMessage>;
  /** Origins allowed to call the API from a browser besides the settings' `allowedOrigins` (comma separated; src/middleware/cors.ts). */
  CORS_ORIGINS?: string;
  /** Largest accepted request body in bytes; defaults to 1 MiB. */
  MAX_BODY_BYTES?: string;
  /** "development" exposes D1 cost figures in responses. */
  ENVIRONMENT?: string;
}

/** Per-request values set by middleware and read by handlers through `c.var`. */
export interface Variables extends TimingVariables {
  requestId: string;
  db: Database;
  /** Where the request's D1 session started (src/middleware/d1-session.ts). */
  sessionStart: import('./middleware/d1-session').SessionStart;
  principal: Principal;
  /** The shopper's network a storefront server named in X-Buyer-IP, once allowed (src/middleware/rate-limit.ts). */
  buyerNetwork?: string;
  /** The caller and its Idempotency-Key, hashed, on routes that take one (src/middleware/idempotency.ts). */
  requestKey?: string;
  /** A credential that failed: thrown once the request has been counted as unauthenticated. */
  authError?: ApiError;
  /** Where counting this request left its bucket (src/middleware/rate-limit.ts); unset when it was not counted. */
  rateLimit?: import('./durable-objects/rate-limiter').RateLimitDecision;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}

/** A numeric setting from the environment, or its default when unset or not a positive number. */
export function numberSetting(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n > 0 ? n : fallback;
}
