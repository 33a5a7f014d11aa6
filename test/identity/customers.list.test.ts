import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema';
import { adminKey, api, db, insertUser, insertVendorUser, uid } from '../helpers';

// Storage is shared by the tests of this file: every list is narrowed with `q` to this run's token.
const tag = uid();
let key: string;
const list = (query: string) => api(`/api/customers?q=${tag}&${query}`, { key });
const ids = (body: { data: { id: string }[] }) => body.data.map((c) => c.id);

const people = [
  { name: `Carla ${tag}`, email: `zed-${tag}@example.test`, createdAt: '2026-01-30T23:59:59.999Z' },
  { name: `Alice ${tag}`, email: `mid-${tag}@example.test`, createdAt: '2026-01-31T00:00:00.000Z' },
  { name: `Bob ${tag}`, email: `abe-${tag}@example.test`, createdAt: '2026-02-01T12:00:00.000Z' },
];
const created: Record<string, string> = {};

beforeAll(async () => {
  key = await adminKey();
  for (const p of people) {
    const { user } = await insertUser({ name: p.name, email: p.email });
    await db().update(users).set({ createdAt: p.createdAt }).where(eq(users.id, user.id));
    created[p.name.split(' ')[0]!] = user.id;
  }
  await db().update(users).set({ status: 'disabled' }).where(eq(users.id, created.Bob!));
  // Users that are not customers, whose names carry the tag too: never listed.
  await insertUser({ role: 'admin', name: `Admin ${tag}` });
  const vendor = await insertVendorUser();
  await db()
    .update(users)
    .set({ name: `Vendor ${tag}` })
    .where(eq(users.id, vendor.user.id));
});

describe('GET /api/customers', () => {
  it('lists only customers, newest first by default, with pagination counted in SQL', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([created.Bob, created.Alice, created.Carla]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1, hasNext: false, hasPrev: false });
    expect(res.body.data[0]).not.toHaveProperty('passwordHash');
    expect(res.body.data[0]).not.toHaveProperty('role');
  });

  it('pages with page and limit', async () => {
    const second = await list('limit=2&page=2&sort=name');
    expect(ids(second.body)).toEqual([created.Carla]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2, hasNext: false, hasPrev: true });
    const past = await list('limit=2&page=5');
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination.total).toBe(3);
  });

  it('sorts by name, email, created_at and id', async () => {
    expect(ids((await list('sort=name')).body)).toEqual([created.Alice, created.Bob, created.Carla]);
    expect(ids((await list('sort=email:desc')).body)).toEqual([created.Carla, created.Alice, created.Bob]);
    expect(ids((await list('sort=created_at:asc')).body)).toEqual([created.Carla, created.Alice, created.Bob]);
    expect(ids((await list('sort=id')).body)).toEqual([...Object.values(created)].sort());
    const bad = await list('sort=password');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('sort');
  });

  it('selects fields', async () => {
    const res = await list('fields=id,email&sort=name&limit=1');
    expect(res.body.data).toEqual([{ id: created.Alice, email: `mid-${tag}@example.test` }]);
    const bad = await list('fields=passwordHash');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('fields');
  });

  it('searches name and email, case-insensitively', async () => {
    const byName = await api(`/api/customers?q=ALICE ${tag}`, { key });
    expect(ids(byName.body)).toEqual([created.Alice]);
    const byEmail = await api(`/api/customers?q=zed-${tag}@`, { key });
    expect(ids(byEmail.body)).toEqual([created.Carla]);
  });

  it('filters by status', async () => {
    expect(ids((await list('status=disabled')).body)).toEqual([created.Bob]);
    expect(ids((await list('status=active&sort=name')).body)).toEqual([created.Alice, created.Carla]);
    const bad = await list('status=banned');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('status');
  });

  it('filters by creation day: created_after includes its day, created_before excludes its day', async () => {
    expect(ids((await list('created_after=2026-01-31&sort=created_at')).body)).toEqual([created.Alice, created.Bob]);
    expect(ids((await list('created_before=2026-01-31')).body)).toEqual([created.Carla]);
    expect(ids((await list('created_after=2026-01-31&created_before=2026-02-01')).body)).toEqual([created.Alice]);
    expect(ids((await list('created_after=2026-02-02')).body)).toEqual([]);
  });

  it('answers a bad date with 400 naming the parameter', async () => {
    for (const [param, value] of [
      ['created_after', '2026-02-30'],
      ['created_after', '2026-1-5'],
      ['created_before', '31/01/2026'],
      ['created_before', '2026-01-31T00:00:00Z'],
      ['created_after', ''],
    ]) {
      const res = await list(`${param}=${encodeURIComponent(value!)}`);
      expect(res.status, `${param}=${value}`).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.details.field).toBe(param);
    }
  });

  it('answers unknown parameters and bad paging with 400 naming them', async () => {
    const unknown = await list('created_since=2026-01-01');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.field).toBe('created_since');
    const limit = await list('limit=101');
    expect(limit.status).toBe(400);
    expect(limit.body.error.details.field).toBe('limit');
  });
});
