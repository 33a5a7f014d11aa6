import type { Database } from './db/client';
import type { Principal } from './middleware/auth';

/** Bindings declared in wrangler.toml (and secrets from .dev.vars or `wrangler secret`). */
export interface Bindings {
  DB: D1Database;
  /** Largest accepted request body in bytes; defaults to 1 MiB. */
  MAX_BODY_BYTES?: string;
  /** "development" exposes D1 cost figures in responses. */
  ENVIRONMENT?: string;
}

/** Per-request values set by middleware and read by handlers through `c.var`. */
export interface Variables {
  requestId: string;
  db: Database;
  principal: Principal;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
