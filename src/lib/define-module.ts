import type { z } from '@hono/zod-openapi';

/** A router of a module: where it is mounted, the first path segments its routes take, and how to load it (on first use). */
export interface ModuleRouter {
  at: '/api' | '/';
  /** `api/<segment>` under `/api`, the first segment elsewhere: which requests can reach it (src/mounts.ts, mountKey). */
  keys: readonly string[];
  /** The router (a `Hono<AppEnv>`: src/mounts.ts checks it; typed loosely here so that a declaration imports nothing of the app). */
  load: () => Promise<unknown>;
}

/**
 * Everything the rest of the app needs to know about a module, declared once in its `module.ts`
 * and gathered by src/modules/registry.ts: the mounts, the permission list, the audit list and the
 * event list are derived from these (docs/architecture.md, "Modules"). A declaration holds data and
 * loaders only, so reading it loads none of the module's code.
 */
export interface ModuleDeclaration {
  /** The module's folder under src/modules. */
  name: string;
  /** Its routers, in the order the app matches them. */
  routers?: readonly ModuleRouter[];
  /** The permission resources it introduces: roles and keys may hold `<resource>:read`, `<resource>:write` and `<resource>:*`. */
  permissions?: readonly string[];
  /**
   * Its tables: each audited one with the resource name its audit rows carry, each other one with
   * why it is not audited (src/db/audit-triggers.ts; test/audit/triggers.test.ts fails on a table in neither).
   */
  tables?: { audited?: Readonly<Record<string, string>>; notAudited?: Readonly<Record<string, string>> };
  /** The event kinds it writes to the outbox; their payload schemas are in its `<name>.events.ts`, loaded by `eventKinds`. */
  events?: readonly string[];
  /** Loads the payload schemas of `events` (for the OpenAPI document's `webhooks` and the tests), on use. */
  eventKinds?: () => Promise<Readonly<Record<string, EventKind>>>;
}

/** An event kind's payload schema, and when it fires (its summary and description in the OpenAPI document). */
export interface EventKind {
  data: z.ZodObject;
  summary: string;
  description: string;
}

/** A module's declaration, checked and kept with its literal types. */
export function defineModule<const D extends ModuleDeclaration>(declaration: D): D {
  return declaration;
}
