import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { endTime, startTime } from 'hono/timing';
import type { RateLimitDecision } from '../durable-objects/rate-limiter';
import { type AppEnv, numberSetting } from '../env';
import { ApiError } from '../lib/errors';
import { type Principal, principalRef } from './auth';

export const WINDOW_SECONDS = 3600;
export const DEFAULT_AUTHENTICATED_LIMIT = 1000;
export const DEFAULT_ANONYMOUS_LIMIT = 100;

/** The counter a request is charged to: its API key, its user, or (without a valid credential) its client IP. */
export function rateLimitBucket(c: Context<AppEnv>, principal: Principal): { name: string; limit: number } {
  const ref = principalRef(principal);
  if (ref) return { name: ref, limit: numberSetting(c.env.RATE_LIMIT_AUTHENTICATED, DEFAULT_AUTHENTICATED_LIMIT) };
  // Requests without CF-Connecting-IP (only possible off Cloudflare) share one bucket.
  const ip = c.req.header('CF-Connecting-IP') ?? 'unknown';
  return { name: `ip:${ip}`, limit: numberSetting(c.env.RATE_LIMIT_ANONYMOUS, DEFAULT_ANONYMOUS_LIMIT) };
}

function headers(decision: RateLimitDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.reset),
    // IETF draft-ietf-httpapi-ratelimit-headers: the policy, and where this request leaves it.
    'RateLimit-Policy': `"hourly";q=${decision.limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"hourly";r=${decision.remaining};t=${Math.max(0, decision.reset - Math.floor(Date.now() / 1000))}`,
  };
}

/**
 * Counts the request in its bucket's Durable Object and answers 429 RATE_LIMITED past the limit.
 * If the object cannot be reached the request is let through (fail open) and the failure logged:
 * a store that cannot sell because its limiter is down loses more than one that briefly over-serves.
 * After counting, a credential that failed (see `authenticate`) is refused with its 401.
 */
export function rateLimit() {
  return createMiddleware<AppEnv>(async function rateLimit(c, next) {
    const bucket = rateLimitBucket(c, c.var.principal);
    let decision: RateLimitDecision | undefined;
    startTime(c, 'ratelimit');
    try {
      decision = await c.env.RATE_LIMITER.getByName(bucket.name).hit(bucket.limit, WINDOW_SECONDS);
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', requestId: c.var.requestId, message: 'rate limiter unreachable; request allowed', error: String(error) }));
    }
    endTime(c, 'ratelimit');
    if (decision) {
      for (const [name, value] of Object.entries(headers(decision))) c.header(name, value);
      if (!decision.allowed) {
        throw new ApiError('RATE_LIMITED', `Rate limit of ${decision.limit} requests per hour exceeded; retry in ${decision.retryAfter} seconds`, {
          headers: { 'Retry-After': String(decision.retryAfter) },
        });
      }
    }
    if (c.var.authError) throw c.var.authError;
    return next();
  });
}
