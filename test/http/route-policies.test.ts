import { env } from 'cloudflare:workers';
import { workerFetch } from '../worker-fetch';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { config } from '../../src/config';
import { declaredPolicy, type RoutePolicy } from '../../src/lib/route-policy';
import { imageFiles } from '../media/images';
import { adminKey, api, createBrand, createCategory, createProduct } from '../helpers';

// Every registered operation behaves as its route policy (src/lib/route-policy.ts) says, for what is
// cheap to observe from outside: whether it is counted (rate-limit headers), whether its GET is kept
// by the catalogue cache (ETag, public Cache-Control, X-Store-Cache) and its body limit (one byte over
// is 413, the limit itself is not).

interface Operation {
  method: string;
  path: string;
  policy: RoutePolicy;
}

const operations: Operation[] = (await createApp().whole()).openAPIRegistry.definitions.flatMap((d) =>
  d.type === 'route' ? [{ method: d.route.method.toUpperCase(), path: d.route.path, policy: declaredPolicy(d.route as never) }] : [],
);

/** Cached reads of items the test does not create (a page, a menu, a banner): they answer 404, so the cache headers cannot be seen on them. */
const NOT_PROBED_FOR_CACHE = new Set(['GET /api/pages/{id}', 'GET /api/menus/{id}', 'GET /api/banners/{id}']);

/** Query parameters an operation needs to answer 200. */
const QUERIES: Record<string, string> = { '/api/products/suggest': '?q=Product' };

let params: Record<string, string> = {};
let probe = 0;

/** The operation's path with real ids where the test has them (a product and its variant and image, a category, a brand). */
function concrete(path: string): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (name === 'id') {
      if (path.startsWith('/api/categories/')) return params.categoryId!;
      if (path.startsWith('/api/brands/')) return params.brandId!;
      return params.productId!;
    }
    return params[name] ?? 'policy-probe';
  });
  return filled + (QUERIES[path] ?? '');
}

/** The operation, asked anonymously from an address of its own (so nothing is limited by the others' counts). */
function send(op: Operation, body?: Uint8Array) {
  probe += 1;
  const headers: Record<string, string> = { 'CF-Connecting-IP': `198.18.${probe >> 8}.${probe & 255}` };
  if (body) headers['Content-Type'] = 'application/json';
  const hasBody = op.method !== 'GET' && op.method !== 'HEAD';
  return workerFetch(new Request(`http://store.test${concrete(op.path)}`, { method: op.method, headers, body: hasBody ? (body ?? new TextEncoder().encode('{}')) : undefined }));
}

describe('route policies', () => {
  beforeAll(async () => {
    const key = await adminKey();
    const product = await createProduct(key);
    const upload = await api(`/api/products/${product.id}/media`, { method: 'POST', key, body: imageFiles['image/png'](), headers: { 'Content-Type': 'image/png' } });
    expect(upload.status).toBe(201);
    params = {
      productId: product.id,
      variantId: product.variants[0].id,
      mediaId: upload.body.data.id,
      categoryId: (await createCategory(key)).id,
      brandId: (await createBrand(key)).id,
    };
  });

  it('covers every operation, some of each kind', () => {
    expect(operations.length).toBeGreaterThan(100);
    expect(
      operations
        .filter((op) => !op.policy.counted)
        .map((op) => `${op.method} ${op.path}`)
        .sort(),
    ).toEqual(['GET /api', 'GET /api/health', 'GET /media/{key}', 'POST /api/payments/stripe/webhook']);
    expect(operations.filter((op) => op.policy.cache === 'catalogue').length).toBeGreaterThan(10);
  });

  it('counts exactly the operations whose policy says counted (rate-limit headers on their answers)', async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      const res = await send(op);
      await res.arrayBuffer();
      const limited = res.headers.has('X-RateLimit-Limit') && res.headers.has('RateLimit-Policy');
      if (limited !== op.policy.counted) wrong.push(`${op.method} ${op.path}: counted ${limited} (${res.status}), policy ${op.policy.counted}`);
    }
    expect(wrong).toEqual([]);
  });

  it('keeps the GET answers of exactly the operations whose policy says cache: catalogue', async () => {
    const wrong: string[] = [];
    for (const op of operations.filter((o) => o.method === 'GET')) {
      const name = `${op.method} ${op.path}`;
      const res = await send(op);
      await res.arrayBuffer();
      const kept = res.headers.has('X-Store-Cache') && res.headers.has('ETag') && res.headers.get('Cache-Control')?.startsWith('public, max-age=60') === true;
      if (op.policy.cache === 'catalogue') {
        if (!NOT_PROBED_FOR_CACHE.has(name) && res.status !== 200) wrong.push(`${name}: answered ${res.status}, so its caching was not seen`);
        else if (res.status === 200 && !kept) wrong.push(`${name}: policy cache: catalogue, but not kept (${res.headers.get('Cache-Control')})`);
      } else if (res.headers.has('X-Store-Cache')) wrong.push(`${name}: policy cache: none, but X-Store-Cache: ${res.headers.get('X-Store-Cache')}`);
    }
    expect(wrong).toEqual([]);
    // Only GETs are ever kept.
    expect(operations.filter((op) => op.policy.cache === 'catalogue' && op.method !== 'GET')).toEqual([]);
  });

  it('refuses a body one byte over the operation maxBodyBytes with 413, and takes one of exactly that size', { timeout: 60_000 }, async () => {
    const settings = config(env);
    const check = async (op: Operation) => {
      const max = op.policy.maxBodyBytes(settings);
      const over = await send(op, new Uint8Array(max + 1).fill(0x20));
      await over.arrayBuffer();
      const at = await send(op, new Uint8Array(max).fill(0x20));
      await at.arrayBuffer();
      return over.status !== 413 || at.status === 413 ? [`${op.method} ${op.path}: ${max + 1} bytes answered ${over.status}, ${max} bytes ${at.status}`] : [];
    };
    const writes = operations.filter((o) => o.method !== 'GET');
    const wrong: string[] = [];
    // A few at a time: one import's bodies are 10 MiB each.
    for (let i = 0; i < writes.length; i += 8) wrong.push(...(await Promise.all(writes.slice(i, i + 8).map(check))).flat());
    expect(wrong).toEqual([]);
  });
});
