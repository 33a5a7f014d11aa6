/**
 * One way to wrap a D1 binding for a request, shared by the three wrappers that need to see what a
 * request runs: the audit context (src/d1/audit.ts), a cached key's check (src/d1/verified.ts)
 * and the development cost headers (src/middleware/d1-metrics.ts). Statements prepared through the
 * wrapper stay usable in its `batch()` (it hands D1 the real statements), each knows whether it
 * writes, and a wrapper only says what it does with a lone statement's call and with a batch.
 */

export interface Intercepted {
  statement: D1PreparedStatement;
  /** May change rows (isWriteStatement); a statement not prepared through the wrapper counts as a write. */
  write: boolean;
  /** Its SQL, as prepared (absent for a statement not prepared through the wrapper). */
  sql?: string;
}

export type StatementMethod = 'all' | 'run' | 'first' | 'raw';

export interface D1Interceptor {
  /** A lone statement's all/run/first/raw; `proceed()` makes the call as asked. Without it, calls pass through. */
  lone?(call: Intercepted & { method: StatementMethod; args: unknown[]; proceed: () => Promise<unknown> }): Promise<unknown>;
  /** A batch; `proceed(statements)` sends real statements to D1. Without it, batches pass through. */
  batch?(statements: Intercepted[], proceed: (statements: D1PreparedStatement[]) => Promise<D1Result[]>): Promise<D1Result[]>;
}

const WRITE = /^\s*(insert|update|delete|replace)\b/i;
const WRITE_IN_CTE = /\b(insert\s+(or\s+\w+\s+)?into|update\s+\S+\s+set|delete\s+from)\b/i;

/** Whether a statement may change rows (drizzle writes start with insert/update/delete; a CTE may lead). */
export function isWriteStatement(sql: string): boolean {
  return WRITE.test(sql) || (/^\s*with\b/i.test(sql) && WRITE_IN_CTE.test(sql));
}

const METHODS = new Set<PropertyKey>(['all', 'run', 'first', 'raw']);

export function interceptD1(d1: D1Database, interceptor: D1Interceptor): D1Database {
  const known = new WeakMap<object, Intercepted>();
  const wrap = (statement: D1PreparedStatement, write: boolean, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        if (prop === 'bind') return (...values: unknown[]) => wrap(target.bind(...values), write, sql);
        const value = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        if (interceptor.lone && METHODS.has(prop)) {
          return (...args: unknown[]) =>
            interceptor.lone!({
              statement: target,
              write,
              sql,
              method: prop as StatementMethod,
              args,
              proceed: () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args),
            });
        }
        return value.bind(target);
      },
    });
    known.set(proxy, { statement, write, sql });
    return proxy;
  };
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === 'prepare') return (query: string) => wrap(target.prepare(query), isWriteStatement(query), query);
      if (prop === 'batch') {
        return (statements: D1PreparedStatement[]) => {
          const found = statements.map((s) => known.get(s) ?? { statement: s, write: true });
          const proceed = (real: D1PreparedStatement[]) => target.batch(real);
          return interceptor.batch ? interceptor.batch(found, proceed) : proceed(found.map((f) => f.statement));
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
