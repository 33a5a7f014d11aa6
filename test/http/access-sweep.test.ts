import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { hasPermission, type Principal } from '../../src/lib/access';
import type { RouteAccess } from '../../src/lib/route-access';
import { declaredPolicy, type RoutePolicy } from '../../src/lib/route-policy';
import { workerFetch } from '../worker-fetch';
import { type Caller, type Markers, sweepFixture } from './access-sweep-callers';

// Every operation of the route table, called as every kind of caller (access-sweep-callers.ts),
// answers as its declared access (src/lib/route-access.ts) says: refused (401 without a credential,
// 403 with one that may not) unless the access allows the caller, and never refused where it does.
// Every answer but an anonymous catalogue read says `Cache-Control: private, no-store`. A vendor's
// credential reads none of another vendor's things through any list, read or CSV export.
// A new route without a declared access fails here.

interface Operation {
  method: string;
  path: string;
  policy: RoutePolicy;
  csv: boolean;
}

const registry = (await createApp().whole()).openAPIRegistry.definitions;
const operations: Operation[] = registry.flatMap((d) => {
  if (d.type !== 'route') return [];
  const route = d.route as typeof d.route & { responses?: Record<string, { content?: Record<string, unknown> }> };
  return [{ method: route.method.toUpperCase(), path: route.path, policy: declaredPolicy(route as never), csv: Boolean(route.responses?.['200']?.content?.['text/csv']) }];
});

const PROBE_ID = 'sweep-probe';

/** As the guard judges a principal holding `caller`'s permissions: whether the access lets it through. */
function allowed(access: RouteAccess, caller: Caller): boolean {
  if (access.kind === 'none' || access.kind === 'public') return true;
  if (caller.kind === 'anonymous' || caller.kind === 'publishable') return false;
  if (access.kind === 'user') return caller.kind === 'user';
  if (access.kind === 'credential') return true;
  const principal: Principal = { kind: 'api_key', id: caller.name, role: null, permissions: caller.permissions, vendorId: caller.vendorId, ownerId: null };
  if (!access.anyOf.some((p) => hasPermission(principal, p))) return false;
  return !(caller.vendorId && access.vendor === 'refused');
}

async function send(op: Operation, caller: Caller, path: string) {
  const headers: Record<string, string> = {};
  if (caller.credential) headers.Authorization = `Bearer ${caller.credential}`;
  const hasBody = op.method !== 'GET' && op.method !== 'HEAD';
  if (hasBody) headers['Content-Type'] = 'application/json';
  const response = await workerFetch(new Request(`http://store.test${path}`, { method: op.method, headers, body: hasBody ? '{}' : undefined }));
  return { status: response.status, text: await response.text(), headers: response.headers };
}

const fill = (path: string, value: string) => path.replace(/\{[^}]+\}/g, value);

/** Runs `tasks` a few at a time: the sweep sends thousands of requests, and one at a time it takes minutes. */
async function inBatches<T>(tasks: (() => Promise<T>)[], size = 16): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < tasks.length; i += size) results.push(...(await Promise.all(tasks.slice(i, i + size).map((t) => t()))));
  return results;
}

let callers: Caller[] = [];
let markers: Markers = { ids: [], texts: [] };
let adminKey = '';

describe('the access sweep', () => {
  beforeAll(async () => {
    ({ callers, markers, adminKey } = await sweepFixture());
  }, 120_000);

  it('finds a declared access on every operation, and the document shows it', () => {
    expect(operations.length).toBeGreaterThan(150);
    const undeclared = operations.filter((op) => !op.policy.access).map((op) => `${op.method} ${op.path}`);
    expect(undeclared, 'operations without policy.access (declare it with apiRoute)').toEqual([]);
  });

  it('refuses every caller the access does not allow, and lets through every caller it does', async () => {
    const tasks = operations.flatMap((op) => {
      const access = op.policy.access!;
      // A key of one single permission says something only where a permission decides.
      const sent = callers.filter((caller) => !caller.single || access.kind === 'permission');
      return sent.map((caller) => async () => {
        const { status, text, headers } = await send(op, caller, fill(op.path, PROBE_ID));
        // A shopper's or a credential's answer is never kept by a shared cache; only anonymous catalogue reads are public.
        const personal = op.path.startsWith('/api') && (op.policy.cache !== 'catalogue' || caller.kind === 'user' || caller.kind === 'api_key');
        if (personal && headers.get('Cache-Control') !== 'private, no-store') {
          return `${op.method} ${op.path} as ${caller.name}: Cache-Control ${headers.get('Cache-Control')}`;
        }
        const expected = allowed(access, caller);
        const refusedAs = caller.kind === 'anonymous' ? 401 : 403;
        // Where the access lets a caller through, the handler may still refuse by row (a customer's
        // `me` with a key, a vendor's cart): a 403 there is the handler's, so only a 401 is wrong.
        const rowDecides = access.kind === 'credential' || access.kind === 'public' || access.kind === 'none';
        const ok = expected ? status !== 401 && (rowDecides || status !== 403) : status === refusedAs;
        return ok ? undefined : `${op.method} ${op.path} as ${caller.name}: ${status} (expected ${expected ? 'through the guard' : refusedAs}) ${text.slice(0, 160)}`;
      });
    });
    const wrong = (await inBatches(tasks)).filter(Boolean);
    expect(wrong).toEqual([]);
    expect(tasks.length).toBeGreaterThan(2000);
  }, 600_000);

  it("shows a vendor none of another vendor's things, in lists, reads and CSV exports", async () => {
    // The markers are there to be seen: staff see each of them through the same reads.
    const admin = callers.find((c) => c.name === 'admin key')!;
    const seenByStaff = (
      await Promise.all(
        ['/api/orders?format=csv', '/api/products?status=draft&format=csv', '/api/shipments?format=csv', '/api/price-lists', '/api/gift-cards?format=csv'].map((path) =>
          send({ method: 'GET' } as Operation, admin, path),
        ),
      )
    )
      .map((r) => r.text)
      .join('\n');
    expect([...markers.ids, ...markers.texts].filter((m) => !seenByStaff.includes(m))).toEqual([]);
    expect(adminKey).not.toBe('');
    const vendorCallers = callers.filter((c) => c.vendorId);
    const reads = operations.filter((op) => op.method === 'GET' && op.path.startsWith('/api'));
    const tasks = reads.flatMap((op) =>
      vendorCallers
        .filter((caller) => allowed(op.policy.access!, caller))
        .flatMap((caller) => {
          const paths = op.path.includes('{') ? markers.ids.map((id) => ({ path: fill(op.path, id), asked: id })) : [{ path: op.path, asked: '' }];
          const withCsv = op.csv ? paths.flatMap((p) => [p, { ...p, path: `${p.path}?format=csv` }]) : paths;
          return withCsv.map(({ path, asked }) => async () => {
            const { text } = await send(op, caller, path);
            const shown = asked ? text.split(asked).join('') : text;
            const leaked = [...markers.ids, ...markers.texts].filter((m) => shown.includes(m));
            return leaked.length ? `GET ${path} as ${caller.name} shows ${leaked.join(', ')}` : undefined;
          });
        }),
    );
    const leaks = (await inBatches(tasks)).filter(Boolean);
    expect(leaks).toEqual([]);
    expect(tasks.length).toBeGreaterThan(50);
  }, 300_000);
});
