import { beforeAll, describe, expect, it } from 'vitest';
import { adminKey, api, expectError, insertUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString();
const addBanner = async (json: Record<string, unknown>, k = key) => api('/api/banners', { method: 'POST', key: k, json });
const banner = async (placement: string, json: Record<string, unknown>) => {
  const res = await addBanner({ title: `Banner ${uid()}`, imageUrl: 'https://cdn.example.com/b.jpg', placement, ...json });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const titles = async (query: string, k?: string) => {
  const res = await api(`/api/banners?${query}`, k ? { key: k } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((b: { title: string }) => b.title) as string[];
};

describe('storefront banners', () => {
  it('shows the public only banners live now, in position order; staff see every status', async () => {
    const placement = `hero-${uid()}`;
    const live = await banner(placement, { position: 2, linkUrl: '/sale', altText: 'Sale' });
    const first = await banner(placement, { position: 1, startsAt: hours(-1), endsAt: hours(1) });
    const scheduled = await banner(placement, { startsAt: hours(2) });
    const expired = await banner(placement, { startsAt: hours(-3), endsAt: hours(-1) });
    const inactive = await banner(placement, { active: false });
    expect([live.status, first.status, scheduled.status, expired.status, inactive.status]).toEqual(['live', 'live', 'scheduled', 'expired', 'inactive']);
    expect(live).toMatchObject({ linkUrl: '/sale', altText: 'Sale', imageUrl: 'https://cdn.example.com/b.jpg', active: true, startsAt: null, endsAt: null });

    const { token } = await insertUser();
    for (const k of [undefined, token]) {
      expect(await titles(`placement=${placement}`, k)).toEqual([first.title, live.title]);
      expect(await titles(`placement=${placement}&status=scheduled`, k)).toEqual([]);
      expectError(await api(`/api/banners/${scheduled.id}`, k ? { key: k } : {}), 404, 'NOT_FOUND');
      expect((await api(`/api/banners/${live.id}`, k ? { key: k } : {})).status).toBe(200);
    }
    expect(await titles(`placement=${placement}`, key)).toHaveLength(5);
    expect(await titles(`placement=${placement}&status=expired`, key)).toEqual([expired.title]);
    expect(await titles(`placement=${placement}&active=false`, key)).toEqual([inactive.title]);
  });

  it('goes live and ends with its schedule, and an update can reschedule it', async () => {
    const placement = `side-${uid()}`;
    const later = await banner(placement, { startsAt: hours(1) });
    expect(await titles(`placement=${placement}`)).toEqual([]);
    const res = await api(`/api/banners/${later.id}`, { method: 'PATCH', key, json: { startsAt: hours(-1) } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe('live');
    expect(await titles(`placement=${placement}`)).toEqual([later.title]);
    await api(`/api/banners/${later.id}`, { method: 'PATCH', key, json: { endsAt: new Date(Date.now() - 1000).toISOString(), startsAt: hours(-2) } });
    expect(await titles(`placement=${placement}`)).toEqual([]);
  });

  it('validates: schedule order, URLs, placement; needs content:write', async () => {
    const bad = await addBanner({ title: '', imageUrl: 'javascript:alert(1)', linkUrl: 'javascript:alert(1)', placement: 'Home Hero', position: -1 });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['imageUrl', 'linkUrl', 'placement', 'position', 'title']);
    const order = await addBanner({ title: 'x', imageUrl: 'https://a.test/x.png', placement: 'p', startsAt: hours(2), endsAt: hours(1) });
    expectError(order, 422, 'VALIDATION_ERROR');
    expect(order.body.error.details).toEqual([{ field: 'endsAt', code: 'too_small', message: expect.stringContaining('after startsAt') }]);
    const b = await banner('p', { startsAt: hours(1) });
    expectError(await api(`/api/banners/${b.id}`, { method: 'PATCH', key, json: { endsAt: hours(0.5) } }), 422, 'VALIDATION_ERROR');
    expectError(await addBanner({ title: 'x', imageUrl: 'https://a.test/x.png', placement: 'p' }, (await insertUser()).token), 403, 'AUTHORIZATION_ERROR');
    expect((await api(`/api/banners/${b.id}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`/api/banners/${b.id}`, { key }), 404, 'NOT_FOUND');
  });
});
