import type { Context } from 'hono';
import type { Next } from 'hono';
import { createMiddleware } from 'hono/factory';
import { endTime, startTime } from 'hono/timing';
import { WINDOW_SECONDS } from '../durable-objects/rate-limit-window';
import type { RateLimitDecision } from '../durable-objects/rate-limiter';
import type { AppEnv } from '../env';
import { config } from '../config';
import { ApiError } from '../lib/errors';
import { ride } from '../d1/request-db';
import type { OptimisticCredential } from './credentials/credential-cache';
import { beginAuthentication, optimisticCredential } from './auth';
import { ANONYMOUS, hasPermission, type Principal } from '../lib/access';
import { clientNetwork, networkOf, shopperNetwork, UNKNOWN_NETWORK } from '../lib/client-network';
import { isStaleCredential } from '../d1/verified';
import { arrivedRequest } from '../lib/arrived-request';
import { askAddress, countServed, type Settled } from '../rate-limit/address-limits';
import { estimatedHit, recordDecision } from '../rate-limit/estimates';
import { hitFromLease, keepLease, leaseSize } from '../rate-limit/leases';

export { WINDOW_SECONDS };

const authenticatedLimit = (c: Context<AppEnv>) => config(c.env).RATE_LIMIT_AUTHENTICATED;
/** The sliding window: an hour, shortened only where a test needs a 429 that clears in seconds. */
const windowSeconds = (c: Context<AppEnv>) => config(c.env).RATE_LIMIT_WINDOW_SECONDS;

/** The estimate's key of a client network (src/rate-limit/estimates.ts). */
const ipBucketName = (network: string) => `ip:${network}`;

/** The counter of a request without a valid credential: its client's network (an IPv6 /64, an IPv4 address: src/lib/client-network.ts). */
export function ipBucket(c: Context<AppEnv>): { name: string; limit: number } {
  return { name: ipBucketName(shopperNetwork(c)), limit: config(c.env).RATE_LIMIT_ANONYMOUS };
}

/**
 * One hit on a bucket: from this isolate's lease when it holds one (src/rate-limit/leases.ts),
 * else from the bucket's Durable Object; undefined when the object cannot be reached (fail open, logged).
 */
async function hit(c: Context<AppEnv>, bucket: { name: string; limit: number }): Promise<RateLimitDecision | undefined> {
  const leased = hitFromLease(bucket.name, bucket.limit);
  if (leased) return leased;
  try {
    const limiter = c.env.RATE_LIMITER.getByName(bucket.name);
    const taken = await limiter.take(bucket.limit, windowSeconds(c), leaseSize(bucket.limit));
    const leaseMs = config(c.env).RATE_LIMIT_LEASE_SECONDS * 1000;
    const { decision, returning } = keepLease(bucket.name, bucket.limit, taken, (n, at) => limiter.giveBack(n, at), leaseMs);
    if (returning)
      c.executionCtx.waitUntil(
        returning.catch((error) => console.error(JSON.stringify({ level: 'error', message: 'rate limiter: unused lease not given back', error: String(error) }))),
      );
    return decision;
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', requestId: c.var.requestId, message: 'rate limiter unreachable; request allowed', error: String(error) }));
    return undefined;
  }
}

/**
 * One hit on a client network's count (src/durable-objects/address-limiter.ts). An anonymous read the
 * network is far from its limit for is answered at once and counted in the background, batched
 * with others (src/rate-limit/estimates.ts, address-limits.ts); every other request
 * waits for its count, and each verdict updates the estimate. Undefined when the limiter cannot
 * be reached (fail open, logged).
 */
async function hitIp(c: Context<AppEnv>, bucket: { name: string; limit: number }, read: boolean): Promise<RateLimitDecision | undefined> {
  const network = shopperNetwork(c);
  const estimated = read ? estimatedHit(bucket.name, bucket.limit, windowSeconds(c)) : undefined;
  if (estimated) {
    countServed(c.env, bucket.limit, windowSeconds(c), network, (promise) => c.executionCtx.waitUntil(promise), settleServed);
    if (config(c.env).ENVIRONMENT === 'development') c.header('X-RateLimit-Counted', 'background');
    return estimated;
  }
  try {
    const decision = await askAddress(c.env, bucket.limit, windowSeconds(c), network);
    recordDecision(bucket.name, decision);
    return decision;
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', requestId: c.var.requestId, message: 'address limiter unreachable; request allowed', error: String(error) }));
    return undefined;
  }
}

/**
 * One hit on a shopper's count under a storefront credential (a publishable key, or a secret key
 * naming its shopper in X-Buyer-IP): `name` and the shopper's network together, with the
 * authenticated limit, in the AddressLimiter shards, so each shopper is limited as a signed-in
 * user is and none can use up the shop's. Always waited for (no estimate). Undefined when the
 * limiter cannot be reached (fail open, logged).
 */
async function hitShopper(c: Context<AppEnv>, name: string, network: string): Promise<RateLimitDecision | undefined> {
  try {
    return await askAddress(c.env, authenticatedLimit(c), windowSeconds(c), `${name}|${network}`);
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', requestId: c.var.requestId, message: 'address limiter unreachable; request allowed', error: String(error) }));
    return undefined;
  }
}

export const BUYER_IP_HEADER = 'X-Buyer-IP';
export const BUYER_IP_PERMISSION = 'storefront:buyer-ip';

/**
 * The network of the shopper a server-side storefront names in X-Buyer-IP, or undefined without
 * the header. Only a credential holding `storefront:buyer-ip` may name one (403 otherwise: a
 * client must not choose whose count it spends), and it must be an address (400).
 */
function buyerNetwork(c: Context<AppEnv>, principal: Principal): string | undefined {
  const buyer = c.req.header(BUYER_IP_HEADER);
  if (buyer === undefined) return undefined;
  if (!hasPermission(principal, BUYER_IP_PERMISSION)) {
    throw ApiError.forbidden(`${BUYER_IP_HEADER} needs a secret key holding '${BUYER_IP_PERMISSION}'`);
  }
  const network = networkOf(buyer);
  if (network === UNKNOWN_NETWORK || network.startsWith('unread:')) throw ApiError.badHeader(BUYER_IP_HEADER, 'must be an IPv4 or IPv6 address');
  c.set('buyerNetwork', network);
  return network;
}

/** Counts a confirmed credential: on the shopper it names in X-Buyer-IP, else (a refused X-Buyer-IP too) on its own bucket. */
async function countCredential(c: Context<AppEnv>, principal: Principal, bucket: string): Promise<RateLimitDecision | undefined> {
  let buyer: string | undefined;
  try {
    buyer = buyerNetwork(c, principal);
  } catch (refusal) {
    enforce(c, await hit(c, { name: bucket, limit: authenticatedLimit(c) }));
    throw refusal;
  }
  return buyer === undefined ? hit(c, { name: bucket, limit: authenticatedLimit(c) }) : hitShopper(c, bucket, buyer);
}

/** The limiter's count of requests answered from the estimate: the network's estimate learns it. */
const settleServed: Settled = (network, decision, n) => recordDecision(ipBucketName(network), decision, n);

const policyName = (window: number) => (window === WINDOW_SECONDS ? 'hourly' : `per-${window}s`);

function headers(decision: RateLimitDecision, window: number): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.reset),
    // IETF draft-ietf-httpapi-ratelimit-headers: the policy, and where this request leaves it.
    'RateLimit-Policy': `"${policyName(window)}";q=${decision.limit};w=${window}`,
    RateLimit: `"${policyName(window)}";r=${decision.remaining};t=${Math.max(0, decision.reset - Math.floor(Date.now() / 1000))}`,
  };
}

/**
 * Authenticates the request, then counts it: on the credential's bucket once D1 has confirmed the
 * credential (`key:` + 16 hex of the key's SHA-256, `user:<id>`), else on the client network's
 * (`ip:<network>`, src/lib/client-network.ts), since a credential that fails is counted as unauthenticated (docs/api.md, Rate limits). Only a
 * confirmed credential is ever charged: a retired token cannot keep its owner at 429, and a flood
 * of made-up keys makes no Durable Object of its own. Past the limit the answer is 429
 * RATE_LIMITED, before a failed credential's 401.
 *
 * If the object cannot be reached the request is let through (fail open) and the failure logged:
 * a store that cannot sell because its limiter is down loses more than one that briefly over-serves.
 */
export function authenticateAndRateLimit(redispatch?: Redispatch) {
  return createMiddleware<AppEnv>(async function authenticateAndRateLimit(c, next) {
    const arrived = arrivedRequest(c.req.raw);
    const again = answeredAgain.has(arrived) || partOfAnother.has(arrived);
    const cached = redispatch && !answeredAgain.has(arrived) ? await optimisticCredential(c) : undefined;
    if (cached) return answerWithCachedCredential(c, next, cached, redispatch!, !again);
    startTime(c, 'auth');
    const pending = await beginAuthentication(c);
    const outcome = await pending.outcome.finally(() => endTime(c, 'auth'));
    const bucket = outcome.ok && pending.bucket ? { name: pending.bucket, limit: authenticatedLimit(c) } : ipBucket(c);
    startTime(c, 'ratelimit');
    // A request answered again (below) was counted the first time.
    // A request without any credential that only reads may be counted in the background (hitIp).
    const anonymousRead = outcome.ok && pending.bucket === null && !pending.shoppers && READS.has(c.req.method);
    const count = async () => {
      if (outcome.ok && pending.bucket) return countCredential(c, outcome.principal, pending.bucket);
      if (outcome.ok && pending.shoppers) return hitShopper(c, pending.shoppers, clientNetwork(c));
      return hitIp(c, bucket, anonymousRead);
    };
    const decision = again ? undefined : await count().finally(() => endTime(c, 'ratelimit'));
    c.set('principal', outcome.ok ? outcome.principal : ANONYMOUS);
    enforce(c, decision);
    if (!outcome.ok) throw outcome.error;
    if (!pending.bucket) buyerNetwork(c, c.var.principal); // no credential may name a shopper: 403
    return next();
  });
}

/**
 * Route middleware for sign-in endpoints: a request that came with a credential was counted on the
 * credential's bucket, so it is counted on the client IP's too; password guessing is always paid
 * for by the address it comes from, whatever free account it carries.
 */
export function alsoCountClientIp() {
  return createMiddleware<AppEnv>(async function alsoCountClientIp(c, next) {
    const principal = c.var.principal;
    if (principal.kind !== 'anonymous' || principal.publishableKey) await countClientIp(c);
    return next();
  });
}

/** Counts the request on its client IP's bucket: 429 RATE_LIMITED past the limit. */
export async function countClientIp(c: Context<AppEnv>): Promise<void> {
  const decision = await hitIp(c, ipBucket(c), false);
  if (decision && !decision.allowed) enforce(c, decision);
}

/** Sends a request through the whole app again (built in src/app.ts, which owns the app). */
export type Redispatch = (request: Request, c: Context<AppEnv>) => Promise<Response>;
/** Requests being answered again after a cached key failed its check: counted once, checked the slow way. */
const answeredAgain = new WeakSet<Request>();
/** Requests a counted request makes of its own (a CSV export's first page, which the export paid for): authenticated, not counted again. */
const partOfAnother = new WeakSet<Request>();

/** Marks `request` as part of the request being answered, which was counted already (only the work that request paid for: more pages are counted). */
export function countedAlready(request: Request): Request {
  partOfAnother.add(request);
  return request;
}

/**
 * 429 RATE_LIMITED, before any work, when the bucket this request was counted on has fewer than
 * `more` requests left: for a request that will be charged `more` times again as it goes on (a CSV
 * export's further pages), so that it is refused whole instead of breaking halfway. Its rate-limit
 * headers are already set; Retry-After says when the oldest counted request leaves the window.
 */
export function requireAllowance(c: Context<AppEnv>, more: number, what: string) {
  const decision = c.var.rateLimit;
  if (!decision || decision.remaining >= more) return;
  const retryAfter = Math.max(1, decision.reset - Math.floor(Date.now() / 1000));
  throw new ApiError('RATE_LIMITED', `${what} needs ${more} more requests of your rate limit and ${decision.remaining} remain; retry in ${retryAfter} seconds or narrow it`, {
    headers: { 'Retry-After': String(retryAfter) },
  });
}

/** Requests without a body to keep for a second answer. */
const READS = new Set(['GET', 'HEAD']);

/** The rate-limit headers, and 429 past the limit. */
function enforce(c: Context<AppEnv>, decision: RateLimitDecision | undefined) {
  if (!decision) return;
  c.set('rateLimit', decision);
  const window = windowSeconds(c);
  for (const [name, value] of Object.entries(headers(decision, window))) c.header(name, value);
  if (!decision.allowed) {
    const per = window === WINDOW_SECONDS ? 'hour' : `${window} seconds`;
    throw new ApiError('RATE_LIMITED', `Rate limit of ${decision.limit} requests per ${per} exceeded; retry in ${decision.retryAfter} seconds`, {
      headers: { 'Retry-After': String(decision.retryAfter) },
    });
  }
}

/**
 * A request with an API key or user token this isolate confirmed lately (src/middleware/credentials/credential-cache.ts):
 * it runs on the cached principal, its database carries the credential's check in the first batch
 * (a lone statement waits for the check: src/d1/verified.ts), and if the check fails (revoked,
 * expired, role changed, password changed, account disabled) the request is answered again from
 * scratch, where the credential is looked up before anything else: a changed credential never
 * gets an answer under its old rights, and never writes.
 * A request with a body keeps a copy of it for that second answer, taken before the handler reads
 * it (a body can be read once). The second answer is not counted again.
 */
async function answerWithCachedCredential(c: Context<AppEnv>, next: Next, credential: OptimisticCredential, redispatch: Redispatch, count: boolean) {
  const decision = count ? await countCredential(c, credential.principal, credential.bucket) : undefined;
  c.set('principal', credential.principal);
  enforce(c, decision);
  const original = READS.has(c.req.method) ? undefined : c.req.raw.clone();
  ride(c, 'credentialCheck', credential.verify);
  await next();
  try {
    if (isStaleCredential(c.error)) throw c.error;
    await credential.verify.settle(); // a handler that read nothing still answers only for a valid key
  } catch (error) {
    if (!isStaleCredential(error)) throw error;
    credential.forget();
    const request = original ?? new Request(c.req.raw);
    answeredAgain.add(request);
    const answer = await redispatch(request, c);
    c.res = new Response(answer.body, answer);
    if (decision) for (const [name, value] of Object.entries(headers(decision, windowSeconds(c)))) c.res.headers.set(name, value);
  }
}
