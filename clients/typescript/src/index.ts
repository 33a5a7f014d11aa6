// @store-api/client: a typed client of the Store API, for Node 20+, browsers, Deno, Bun and
// Cloudflare Workers (global fetch and Web Crypto only).

export { StoreClient } from './client.js';
export type { ClientOptions, ClientStats, ListResult, RequestOptions, RequestSpec, RetryInfo } from './core.js';
export { parseRetryAfter } from './core.js';
export {
  AuthenticationError,
  AuthorizationError,
  ConflictError,
  InternalError,
  InvalidRequestError,
  NotFoundError,
  RateLimitedError,
  StoreApiError,
  StoreConnectionError,
  ValidationError,
  codeForStatus,
  type ErrorCode,
  type StoreApiErrorInit,
} from './errors.js';
export * from './generated/index.js';
export {
  constructEvent,
  type ConstructEventInput,
  isNewerEvent,
  type StoreEventHandlers,
  webhookHandler,
  type WebhookHandlerOptions,
  WebhookVerificationError,
} from './events.js';
// The webhook verifier is plain JavaScript with its own declarations (src/webhooks.js, .d.ts), so it
// can be used, and copied, without a build. It is imported as `../src/webhooks.js` so that the
// specifier resolves to the same file from src/ and from the built dist/.
export {
  DEFAULT_TOLERANCE_SECONDS,
  getHeader,
  timingSafeEqual,
  verifyStandardWebhook,
  verifyStoreSignature,
  verifyWebhook,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookVerification,
} from '../src/webhooks.js';
