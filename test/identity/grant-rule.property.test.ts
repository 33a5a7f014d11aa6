import { describe, expect, it } from 'vitest';
import { PERMISSION_ACTIONS, PERMISSION_RESOURCES } from '../../src/lib/permissions';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, db, insertUser, TEST_PASSWORD, uid } from '../helpers';

/**
 * The grant rule as a property: for many random (caller permissions, target permissions) pairs,
 * every path that grants or takes away is allowed exactly when the caller covers the target. The
 * expectation comes from a brute-force reading of what each permission set grants, not from the
 * code under test.
 */

/** Seeded, so a failure names a pair that can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Targets draw from a few resources so that covered and uncovered pairs both come up often.
const DRAWN = ['products', 'orders', 'customers', 'coupons'];
const FORMS = (r: string) => [`${r}:read`, `${r}:write`, `${r}:*`];

function draw(next: () => number, max: number): string[] {
  if (next() < 0.05) return ['*'];
  const all = DRAWN.flatMap(FORMS);
  const picked = new Set<string>();
  const n = Math.floor(next() * (max + 1));
  for (let i = 0; i < n; i++) picked.add(all[Math.floor(next() * all.length)]!);
  return [...picked];
}

/** Every concrete resource:action pair a set of permissions grants, read straight off their shapes. */
function grantedPairs(permissions: readonly string[]): Set<string> {
  const pairs = new Set<string>();
  for (const p of permissions) {
    const [resource, action] = p === '*' ? ['*', '*'] : p.split(':');
    for (const r of resource === '*' ? PERMISSION_RESOURCES : [resource!]) {
      for (const a of action === '*' ? PERMISSION_ACTIONS : [action!]) pairs.add(`${r}:${a}`);
    }
  }
  return pairs;
}
const expectCovered = (caller: readonly string[], target: readonly string[]) => {
  const held = grantedPairs(caller);
  return [...grantedPairs(target)].every((pair) => held.has(pair));
};

/** What each path answered, as allowed (2xx) or refused (403); anything else fails the test. */
function verdict(res: { status: number; body: any }, path: string): boolean {
  if (res.status >= 200 && res.status < 300) return true;
  if (res.status === 403 && res.body.error.code === 'AUTHORIZATION_ERROR') return false;
  throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
}

describe('the grant rule, over random pairs', () => {
  it('allows every grant path exactly when the caller covers the target', async () => {
    const seed = 15_2026;
    const next = random(seed);
    const admin = await adminKey();
    const roleOf = async (permissions: string[]) => (await api('/api/roles', { method: 'POST', key: admin, json: { name: `r-${uid()}`, permissions } })).body.data.id as string;
    const staffUser = async (role: string) =>
      (await api('/api/users', { method: 'POST', key: admin, json: { email: `t-${uid()}@example.test`, password: TEST_PASSWORD, role } })).body.data.id as string;
    const bare = await roleOf([]);
    let allowed = 0;
    let refused = 0;

    for (let pair = 0; pair < 20; pair++) {
      // The caller can reach every grant endpoint; what it may grant there is what it holds besides.
      const callerPermissions = ['roles:*', 'users:*', 'api-keys:*', ...draw(next, 9)];
      // Half the targets are drawn from what the caller holds, so covered pairs come up as often as not.
      const pool = next() < 0.5 ? callerPermissions : DRAWN.flatMap(FORMS);
      const target = [...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pool[Math.floor(next() * pool.length)]!))];
      const expected = expectCovered(callerPermissions, target);
      const caller =
        pair % 2 === 0
          ? (await createApiKey(db(), { name: `caller ${pair}`, permissions: callerPermissions })).key
          : (await insertUser({ role: await roleOf(callerPermissions) })).token;
      const targetRole = await roleOf(target);
      const [toChange, toDisable, toDelete, toPromote] = [await staffUser(targetRole), await staffUser(targetRole), await staffUser(targetRole), await staffUser(bare)];
      const targetKey = await createApiKey(db(), { name: 'target', permissions: target });
      const emptyRole = await roleOf([]);

      const paths: Record<string, () => Promise<{ status: number; body: any }>> = {
        'create role': () => api('/api/roles', { method: 'POST', key: caller, json: { name: `c-${uid()}`, permissions: target } }),
        'widen role': () => api(`/api/roles/${emptyRole}`, { method: 'PATCH', key: caller, json: { permissions: target } }),
        'change role': () => api(`/api/roles/${targetRole}`, { method: 'PATCH', key: caller, json: { description: 'changed' } }),
        'create user': () => api('/api/users', { method: 'POST', key: caller, json: { email: `n-${uid()}@example.test`, password: TEST_PASSWORD, role: targetRole } }),
        'assign role': () => api(`/api/users/${toPromote}`, { method: 'PATCH', key: caller, json: { role: targetRole } }),
        'reset password': () => api(`/api/users/${toChange}`, { method: 'PATCH', key: caller, json: { password: 'another good password' } }),
        'disable user': () => api(`/api/users/${toDisable}`, { method: 'PATCH', key: caller, json: { status: 'disabled' } }),
        'delete user': () => api(`/api/users/${toDelete}`, { method: 'DELETE', key: caller }),
        'mint key': () => api('/api/settings/api-keys', { method: 'POST', key: caller, json: { name: 'minted', permissions: target } }),
        'revoke key': () => api(`/api/settings/api-keys/${targetKey.record.id}`, { method: 'DELETE', key: caller }),
      };
      for (const [path, call] of Object.entries(paths)) {
        const got = verdict(await call(), path);
        expect(got, `seed ${seed} pair ${pair} ${path}: caller ${JSON.stringify(callerPermissions)} target ${JSON.stringify(target)}`).toBe(expected);
        if (got) allowed++;
        else refused++;
      }
    }
    // Both outcomes were exercised, or the property says little.
    expect(allowed).toBeGreaterThan(30);
    expect(refused).toBeGreaterThan(30);
    // Hundreds of sequential requests: about 30 s on an idle two-core machine, over 60 s on a busy one.
  }, 180_000);
});
