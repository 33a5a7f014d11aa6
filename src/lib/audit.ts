import type { Principal } from '../middleware/auth';

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

const WRITE = /^\s*(insert|update|delete|replace)\b/i;
const WRITE_IN_CTE = /\b(insert\s+(or\s+\w+\s+)?into|update\s+\S+\s+set|delete\s+from)\b/i;

/** Whether a statement may change rows (drizzle writes start with insert/update/delete; a CTE may lead). */
export function isWriteStatement(sql: string): boolean {
  return WRITE.test(sql) || (/^\s*with\b/i.test(sql) && WRITE_IN_CTE.test(sql));
}

type Row = Record<string, unknown>;

/**
 * A D1 binding whose writes are audited for whoever `actor()` names at the time they run (null: not
 * audited, and statements pass through untouched). Reads are never changed.
 */
export function auditedD1(d1: D1Database, actor: () => AuditActor | null): D1Database {
  const real = new WeakMap<object, { statement: D1PreparedStatement; write: boolean }>();
  const context = (who: AuditActor) => [
    d1.prepare(SET_CONTEXT).bind(who.kind, who.id, who.kind, who.id, who.id, who.role, who.requestId ?? null, who.method ?? null, who.path ?? null, new Date().toISOString()),
    d1.prepare(CLEAR_CONTEXT),
  ] as const;
  /** Runs one write inside [set context, write, clear context] and returns the write's result. */
  const alone = async (statement: D1PreparedStatement, who: AuditActor) => {
    const [set, clear] = context(who);
    const results = await d1.batch<Row>([set, statement, clear]);
    return results[1]!;
  };

  const wrap = (statement: D1PreparedStatement, write: boolean): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        if (prop === 'bind') return (...values: unknown[]) => wrap(target.bind(...values), write);
        const who = write ? actor() : null;
        if (who) {
          switch (prop) {
            case 'run':
            case 'all':
              return () => alone(target, who);
            case 'first':
              return async (column?: string) => {
                const row = (await alone(target, who)).results[0];
                return row === undefined ? null : column === undefined ? row : row[column];
              };
            case 'raw':
              return async (options?: { columnNames?: boolean }) => {
                const rows = (await alone(target, who)).results;
                const values = rows.map((r) => Object.values(r));
                return options?.columnNames ? [Object.keys(rows[0] ?? {}), ...values] : values;
              };
          }
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    real.set(proxy, { statement, write });
    return proxy;
  };

  return new Proxy(d1, {
    get(target, prop) {
      if (prop === 'prepare') return (query: string) => wrap(target.prepare(query), isWriteStatement(query));
      if (prop === 'batch') {
        return async <T>(statements: D1PreparedStatement[]) => {
          const found = statements.map((s) => real.get(s) ?? { statement: s, write: true });
          const plain = found.map((f) => f.statement);
          const who = found.some((f) => f.write) ? actor() : null;
          if (!who) return target.batch<T>(plain);
          const [set, clear] = context(who);
          return (await target.batch<T>([set, ...plain, clear])).slice(1, -1);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
