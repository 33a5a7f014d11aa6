import type { Principal } from '../lib/access';
import { interceptD1 } from './intercept';

export { isWriteStatement } from './intercept';

/**
 * Who the audit log records for a request's writes. The log itself is written by triggers on the
 * audited tables (src/db/audit-triggers.ts); they act only when the transaction carries an
 * `audit_context` row. `auditedD1` makes every write of an audited principal carry one: it puts
 * the row's INSERT first and its DELETE last in the same D1 batch (a lone write statement becomes
 * such a batch of three), so the context exists only inside that transaction, and the audit rows
 * commit or roll back with the change itself.
 *
 * Why here and not in each service: writes go through some hundred statements in thirty service
 * files (and the admin panel calls the same services), most without the principal at hand. One
 * wrapper around the request's D1 binding and one trigger set per table cover all of them, and any
 * written later, with before/after values the database already has (OLD/NEW), at no extra reads.
 *
 * One consequence for writers: D1's `meta.changes` counts the rows a statement's triggers wrote
 * too (the audit row among them), so test it against 0 (`=== 0`, `> 0`), never `=== 1`.
 */

export interface AuditActor {
  kind: 'user' | 'api_key';
  id: string;
  role: string | null;
  requestId?: string;
  method?: string;
  path?: string;
}

/**
 * The actor to record for a principal, or null when its writes are not audited: anonymous callers
 * (guest carts, sign-up) and customers acting on their own carts, orders, addresses and profile,
 * which those resources already attribute to them. Staff users (any role but the built-in
 * `customer`), vendor users and API keys are audited.
 */
export function auditActorOf(principal: Principal | undefined): Omit<AuditActor, 'requestId' | 'method' | 'path'> | null {
  if (!principal || principal.kind === 'anonymous') return null;
  if (principal.kind === 'api_key') return { kind: 'api_key', id: principal.id, role: principal.role };
  if (principal.role === 'customer' && principal.vendorId === null) return null;
  return { kind: 'user', id: principal.id, role: principal.role };
}

// The label is looked up in the same statement: the user's email, or the key's visible prefix.
const SET_CONTEXT = `INSERT OR REPLACE INTO audit_context (id, actor_kind, actor_id, actor_label, actor_role, request_id, method, path, at)
VALUES (1, ?, ?, CASE ? WHEN 'user' THEN (SELECT email FROM users WHERE id = ?) ELSE (SELECT prefix FROM api_keys WHERE id = ?) END, ?, ?, ?, ?, ?)`;
const CLEAR_CONTEXT = 'DELETE FROM audit_context';

type Row = Record<string, unknown>;

/**
 * A D1 binding whose writes are audited for whoever `actor()` names at the time they run (null: not
 * audited, and statements pass through untouched). Reads are never changed.
 */
export function auditedD1(d1: D1Database, actor: () => AuditActor | null): D1Database {
  const context = (who: AuditActor) =>
    [
      d1.prepare(SET_CONTEXT).bind(who.kind, who.id, who.kind, who.id, who.id, who.role, who.requestId ?? null, who.method ?? null, who.path ?? null, new Date().toISOString()),
      d1.prepare(CLEAR_CONTEXT),
    ] as const;
  return interceptD1(d1, {
    // A lone write becomes the batch [set context, write, clear context], answered as the call asked.
    async lone({ statement, write, method, args, proceed }) {
      const who = write ? actor() : null;
      if (!who) return proceed();
      const [set, clear] = context(who);
      const result = (await d1.batch<Row>([set, statement, clear]))[1]!;
      if (method === 'run' || method === 'all') return result;
      const rows = result.results;
      if (method === 'first') {
        const column = args[0] as string | undefined;
        const row = rows[0];
        return row === undefined ? null : column === undefined ? row : row[column];
      }
      const values = rows.map((r) => Object.values(r));
      return (args[0] as { columnNames?: boolean } | undefined)?.columnNames ? [Object.keys(rows[0] ?? {}), ...values] : values;
    },
    async batch(statements, proceed) {
      const plain = statements.map((s) => s.statement);
      const who = statements.some((s) => s.write) ? actor() : null;
      if (!who) return proceed(plain);
      const [set, clear] = context(who);
      return (await proceed([set, ...plain, clear])).slice(1, -1);
    },
  });
}
