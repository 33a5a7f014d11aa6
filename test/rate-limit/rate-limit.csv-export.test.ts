import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/lib/csv';
import { api, insertBrandWithProducts } from '../helpers';
import { exportWatchingPages } from '../http/csv-export-pages';

// This project runs with RATE_LIMIT_ANONYMOUS=5 (vitest.config.ts): every anonymous request waits
// for its count, so the headers are exact. A CSV export costs one request per page of 100 rows.
const ANONYMOUS = 5;
/** An IPv4 address of its own (IPv4 clients are counted per address). */
const newIp = () => `10.${Array.from(crypto.getRandomValues(new Uint8Array(3))).join('.')}`;
const fromIp = (ip: string, headers: Record<string, string> = {}) => ({ headers: { 'CF-Connecting-IP': ip, ...headers } });
const remaining = (res: { headers: Headers }) => Number(res.headers.get('X-RateLimit-Remaining'));
const rowsOf = (csv: string) =>
  parseCsv(csv)
    .slice(1)
    .map((row) => row.cells);

describe('CSV export and the rate limit', () => {
  it('charges an anonymous export one request per page it reads, and refuses up front one the allowance cannot cover', async () => {
    const three = await insertBrandWithProducts(250);
    const five = await insertBrandWithProducts(450);
    const ip = newIp();
    const before = await api('/api/brands', fromIp(ip));
    expect(remaining(before)).toBe(ANONYMOUS - 1);

    // 5 pages: the export's own request and 4 more, where 3 remain: 429 before any row, with the usual headers.
    const refused = await api(`/api/products?format=csv&brand=${five.slug}&fields=name`, fromIp(ip));
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.body.error.message).toContain('needs 4 more requests of your rate limit and 3 remain');
    expect(remaining(refused)).toBe(ANONYMOUS - 2);
    expect(refused.headers.get('X-RateLimit-Limit')).toBe(String(ANONYMOUS));
    expect(refused.headers.get('RateLimit-Policy')).toBe(`"hourly";q=${ANONYMOUS};w=3600`);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(3500);

    // 250 rows, 3 pages, where 2 remain after the export's own count: exported whole, and the allowance is spent.
    const exported = await api(`/api/products?format=csv&brand=${three.slug}&fields=name`, fromIp(ip));
    expect(exported.status).toBe(200);
    expect(rowsOf(exported.body).map((r) => r[0])).toEqual([...three.names].reverse());
    expect(remaining(exported)).toBe(ANONYMOUS - 3); // its own count; its two further pages follow
    const after = await api('/api/brands', fromIp(ip));
    expect(after.status).toBe(429);
    expect(remaining(after)).toBe(0);
  });

  it('charges each page to the bucket the export was counted on: ceil(rows / 100) requests', async () => {
    const { slug } = await insertBrandWithProducts(201);
    const ip = newIp();
    const res = await api(`/api/products?format=csv&brand=${slug}`, fromIp(ip));
    expect(res.status).toBe(200);
    expect(rowsOf(res.body)).toHaveLength(201);
    expect(remaining(await api('/api/brands', fromIp(ip)))).toBe(ANONYMOUS - 3 - 1);
  });

  it('breaks the download off when the limit runs out between pages, never ending it as if complete', async () => {
    const { slug } = await insertBrandWithProducts(250);
    const ip = newIp();
    // Between pages 1 and 2 the same client spends what the export counted on.
    const { res, body, pages } = await exportWatchingPages(`/api/products?format=csv&brand=${slug}`, fromIp(ip), async (page) => {
      if (page !== 2) return;
      for (let i = 0; i <= ANONYMOUS && (await api('/api/brands', fromIp(ip))).status !== 429; i++);
    });
    expect(res.status).toBe(200);
    expect(pages.map((p) => p.url.searchParams.get('page'))).toEqual(['1', '2']);
    expect(body).toBeInstanceOf(Error);
    expect((body as Error).message).toContain('stopped at page 2: 429');
  });
});
