import { violatedGuard } from '../lib/db-guards';
import { interceptD1 } from './intercept';

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

/** How a cached credential is checked: a read judged in JS, or a guard statement inside a write batch. */
export interface CredentialCheck {
  /** The credential's row, read on `d1` (the layer below the check's). */
  check(d1: D1Database): D1PreparedStatement;
  accept(rows: Row[]): boolean;
  /** A write_guards statement that aborts its batch with guard:stale_credential unless the credential is as cached. */
  guard(d1: D1Database): D1PreparedStatement;
  /** Called when a batch carrying the guard committed. */
  guarded(): void;
}

/** The request's credential check (a layer of src/d1/request-db.ts): `over(d1)` is its binding. */
export interface CredentialRider {
  over(d1: D1Database): D1Database;
  /** Runs the check now if no statement has carried it yet; throws StaleCredential when it fails. */
  settle(): Promise<void>;
}

/**
 * The check of a request whose principal came from this isolate's cache instead of a lookup:
 * it rides in the first batch the request runs, so a cached credential costs no round trip of its
 * own. A batch that only reads carries `check` as its first statement, and no rows reach the
 * handler before `accept` has passed it. A batch that writes carries `guard` as its first
 * statement: if the credential changed, the whole batch aborts and nothing it wrote commits.
 * Either failure throws StaleCredential, and the request is answered again from scratch
 * (src/middleware/rate-limit.ts). A lone statement (outside a batch) waits for the check run alone.
 * Its layer lies above the audit's (src/d1/request-db.ts), so the audit rows that layer adds are
 * inside the same batch as the guard.
 */
export function credentialRider(credential: CredentialCheck): CredentialRider {
  let verified = false;
  let alone: Promise<void> | undefined;
  /** The binding below the check's layer, where its own statements run. */
  let below: D1Database | undefined;
  const judge = (rows: Row[]) => {
    if (!credential.accept(rows)) throw new StaleCredential();
    verified = true;
  };
  const settle = () => {
    if (verified) return Promise.resolve();
    if (!below) throw new Error('credentialRider: settle() before the rider is part of a database (ride() it first)');
    return (alone ??= credential
      .check(below)
      .all<Row>()
      .then((r) => judge(r.results)));
  };
  const over = (d1: D1Database) => {
    below = d1;
    return interceptD1(d1, {
      async lone({ proceed }) {
        await settle();
        return proceed();
      },
      async batch(statements, proceed) {
        const plain = statements.map((s) => s.statement);
        if (verified || alone) {
          await settle();
          return proceed(plain);
        }
        if (statements.some((s) => s.write)) {
          const [, ...results] = await proceed([credential.guard(d1), ...plain]).catch((error: unknown) => {
            throw violatedGuard(error) === 'stale_credential' ? new StaleCredential() : error;
          });
          if (!verified) credential.guarded();
          verified = true;
          return results;
        }
        const [first, ...results] = await proceed([credential.check(d1), ...plain]);
        judge(first!.results as Row[]);
        return results;
      },
    });
  };
  return { over, settle };
}
