import { interceptD1 } from '../lib/d1-intercept';

/** The credential a request ran under (taken from this isolate's cache) turned out to have changed. */
export class StaleCredential extends Error {
  constructor() {
    super('The credential changed since it was cached; the request is answered again from scratch');
  }
}

/** Whether `error` is a StaleCredential, or wraps one (Drizzle wraps what a lone statement throws as a DrizzleQueryError's `cause`). */
export function isStaleCredential(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof StaleCredential) return true;
  }
  return false;
}

type Row = Record<string, unknown>;

export interface VerifiedD1 {
  binding: D1Database;
  /** Runs the check now if no statement has carried it yet; throws StaleCredential when it fails. */
  settle(): Promise<void>;
}

/**
 * A D1 binding for a request whose principal came from this isolate's cache instead of a lookup:
 * the credential's check (`check`, judged by `accept`) rides as the first statement of the first
 * batch the request runs if that batch only reads, so a cached credential costs no round trip of
 * its own, and no rows reach the handler before the check has passed (else StaleCredential is
 * thrown and the request is answered again from scratch, src/middleware/rate-limit.ts). A write
 * statement never runs before the check: a batch holding one, or a lone write, waits for the check
 * run alone first. That covers every write a request makes through `c.var.db`, the idempotency
 * key's claim and the audit context included: this binding wraps the audited one
 * (src/lib/audit.ts), so the audit rows it adds are inside the batch that waits. Statements run
 * outside a batch wait for the check too.
 */
export function verifiedD1(d1: D1Database, check: () => D1PreparedStatement, accept: (rows: Row[]) => boolean): VerifiedD1 {
  let verified = false;
  let alone: Promise<void> | undefined;
  const judge = (rows: Row[]) => {
    if (!accept(rows)) throw new StaleCredential();
    verified = true;
  };
  const settle = () => (verified ? Promise.resolve() : (alone ??= check().all<Row>().then((r) => judge(r.results))));
  const binding = interceptD1(d1, {
    async lone({ proceed }) {
      await settle();
      return proceed();
    },
    async batch(statements, proceed) {
      const plain = statements.map((s) => s.statement);
      if (verified || alone || statements.some((s) => s.write)) {
        await settle();
        return proceed(plain);
      }
      const [first, ...results] = await proceed([check(), ...plain]);
      judge(first!.results as Row[]);
      return results;
    },
  });
  return { binding, settle };
}
